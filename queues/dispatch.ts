import type { Env } from '../src/env';
import { isDeadLetterQueue, type QueueMessageBody } from './messages';

export type MessageHandler = (body: QueueMessageBody, env: Env) => Promise<void>;

/** Handlers by message kind. The send, import and events capabilities register theirs here. */
export const handlers: Record<string, MessageHandler> = {};

/**
 * The worker's queue entry point: each message goes to the handler of its kind and is acked when that
 * succeeds, retried with backoff when it throws. Handlers are idempotent (at-least-once delivery).
 * Dead-letter queues only record what ended there.
 */
export async function dispatchQueue(batch: MessageBatch<QueueMessageBody>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    if (isDeadLetterQueue(batch.queue)) {
      console.error(JSON.stringify({ level: 'error', dead_letter: batch.queue, id: message.id, body: message.body }));
      message.ack();
      continue;
    }
    const handler = handlers[message.body?.kind];
    try {
      if (!handler) throw new Error(`no handler for message kind "${message.body?.kind}" on ${batch.queue}`);
      await handler(message.body, env);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', queue: batch.queue, id: message.id, error: String(error) }));
      message.retry({ delaySeconds: Math.min(300, 2 ** message.attempts) });
    }
  }
}
