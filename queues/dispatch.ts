import type { Env } from '../src/env';
import { SendChannels } from '../src/modules/sending/channels';
import type { AnyQueueBody } from '../src/queue-bodies';
import { whileSending } from '../src/lib/sending-first';
import { isDeadLetterQueue, queueRole } from '../src/queue-names';
import { eventHandlers } from './events';
import { handle, isBodyOf, type HandlersOf, type InvocationContext } from './handlers';
import { importHandlers } from './import';
import { sendHandlers } from './send';
import { consumeTransactional } from './transactional';
import { countTrackingBatch, isTrackingHits } from './tracking-batch';
import { webhookHandlers } from './webhooks';

/**
 * Messages handled at once per invocation on the send queue: while one batch is on the SMTP session, the next
 * ones are claimed and rendered (D1 round trips overlap). Other queues go one message at a time.
 */
const SEND_CONCURRENCY = 8;

/**
 * The worker's queue entry point: each message goes to the handler of its queue and kind and is acked when that
 * succeeds, retried with backoff when it throws (a kind no handler knows too, so it ends in the dead-letter
 * queue). Handlers are idempotent (at-least-once delivery). Dead-letter queues only record what ended there.
 */
export async function dispatchQueue(
  batch: MessageBatch<AnyQueueBody>,
  env: Env,
  context: InvocationContext = { channels: new SendChannels(env) },
): Promise<void> {
  const started = Date.now();
  try {
    await dispatchEach(batch, env, context);
  } finally {
    await context.channels.close();
    // One line per consumer run for Workers Logs: which queue, how many messages, how long (each failure has its own).
    console.log(JSON.stringify({ level: 'info', consumer: batch.queue, messages: batch.messages.length, ms: Date.now() - started }));
  }
}

async function dispatchEach(batch: MessageBatch<AnyQueueBody>, env: Env, context: InvocationContext): Promise<void> {
  const { queue, messages } = batch;
  if (isDeadLetterQueue(queue)) {
    for (const message of messages) {
      console.error(JSON.stringify({ level: 'error', dead_letter: queue, id: message.id, body: message.body }));
      message.ack();
    }
    return;
  }
  switch (queueRole(queue)) {
    // Counted as sending: webhook deliveries in this isolate step back meanwhile (src/lib/sending-first.ts).
    case 'send':
      return whileSending(() => inLanes(messages, SEND_CONCURRENCY, (message) => dispatchOne(queue, sendHandlers, message, env, context)));
    case 'transactional':
      return whileSending(() => consumeTransactional(messages, env, context));
    case 'import':
      return inLanes(messages, 1, (message) => dispatchOne(queue, importHandlers, message, env, context));
    case 'events': {
      await countTrackingBatch(messages.filter(isTrackingHits), env);
      const rest = messages.filter((message) => !isTrackingHits(message));
      return inLanes(rest, 1, (message) => dispatchOne(queue, eventHandlers, message, env, context));
    }
    case 'webhooks':
      // Every flight at once: each is one endpoint's, so a slow receiver holds only its own (FLIGHT_CAP per endpoint).
      return inLanes(messages, messages.length, (message) => dispatchOne(queue, webhookHandlers, message, env, context));
    default:
      return inLanes(messages, 1, (message) => dispatchOne(queue, {}, message, env, context));
  }
}

/** Runs `work` on each message, at most `parallel` at a time, in order. */
async function inLanes<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}

/** One message: to the handler of its kind, acked when that succeeds, retried with backoff when it throws. */
async function dispatchOne<Bodies extends object>(
  queue: string,
  handlers: HandlersOf<Bodies>,
  message: Message<unknown>,
  env: Env,
  context: InvocationContext,
): Promise<void> {
  const body = message.body;
  try {
    if (!isBodyOf(handlers, body)) throw new Error(`no handler for message kind "${kindOf(body)}" on ${queue}`);
    await handle(handlers, body.kind, body, env, message.attempts, context);
    message.ack();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', queue, id: message.id, error: String(error) }));
    message.retry({ delaySeconds: Math.min(300, 2 ** message.attempts) });
  }
}

const kindOf = (body: unknown) => (typeof body === 'object' && body !== null && 'kind' in body ? String(body.kind) : String(body));
