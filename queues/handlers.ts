import type { Env } from '../src/env';
import type { SendChannels } from '../src/modules/sending/channels';

// What a queue's handler is: one per kind of the queue's contract (src/queue-bodies.ts), each typed with its own body.

/** What the handlers of one invocation share: the open send channels (one SMTP session per integration). */
export interface InvocationContext {
  channels: SendChannels;
}

/** A queue's handlers by kind. `attempt` is the queue's delivery count of the message (1 for the first). */
export type HandlersOf<Bodies> = {
  [K in keyof Bodies]: (body: Bodies[K], env: Env, attempt: number, context: InvocationContext) => Promise<void>;
};

/**
 * Whether a body as it came off the queue has a kind these handlers know; it is then that kind's body, since every
 * producer is typed by the same contract (and each handler still checks the ids it is given).
 */
export function isBodyOf<Bodies extends object>(handlers: HandlersOf<Bodies>, body: unknown): body is Bodies[keyof Bodies] & { kind: keyof Bodies } {
  const kind = typeof body === 'object' && body !== null && 'kind' in body ? body.kind : undefined;
  return typeof kind === 'string' && Object.hasOwn(handlers, kind);
}

/** Runs the handler of the body's own kind (the maps are typed so that kind and body always agree). */
export function handle<Bodies, K extends keyof Bodies>(
  handlers: HandlersOf<Bodies>,
  kind: K,
  body: Bodies[K],
  env: Env,
  attempt: number,
  context: InvocationContext,
): Promise<void> {
  return handlers[kind](body, env, attempt, context);
}
