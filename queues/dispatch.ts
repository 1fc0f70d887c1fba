import type { Env } from '../src/env';
import { SendChannels } from '../src/modules/sending/channels';
import { eventHandlers } from './events';
import { importHandlers } from './import';
import { isDeadLetterQueue, QUEUE_NAMES, type QueueMessageBody } from './messages';
import { sendHandlers } from './send';
import { countTrackingBatch, isTrackingHits } from './tracking-batch';

/** What the handlers of one invocation share: the open send channels (one SMTP session per integration). */
export interface InvocationContext {
  channels: SendChannels;
}

export type MessageHandler = (body: QueueMessageBody, env: Env, message: Message<QueueMessageBody>, context?: InvocationContext) => Promise<void>;

/** Handlers by queue name, then message kind. */
const handlersByQueue: Record<string, Record<string, MessageHandler>> = {
  [QUEUE_NAMES.send]: sendHandlers,
  [QUEUE_NAMES.import]: importHandlers,
  [QUEUE_NAMES.events]: eventHandlers,
};

/**
 * The worker's queue entry point: each message goes to the handler of its kind and is acked when that
 * succeeds, retried with backoff when it throws. Handlers are idempotent (at-least-once delivery).
 * Dead-letter queues only record what ended there.
 */
export async function dispatchQueue(batch: MessageBatch<QueueMessageBody>, env: Env, context: InvocationContext = { channels: new SendChannels(env) }): Promise<void> {
  try {
    await dispatchEach(batch, env, context);
  } finally {
    await context.channels.close();
  }
}

/**
 * Messages handled at once per invocation on the send queue: while one batch is on the SMTP session, the next
 * ones are claimed and rendered (D1 round trips overlap). Other queues go one message at a time.
 */
const SEND_CONCURRENCY = 8;

async function dispatchEach(batch: MessageBatch<QueueMessageBody>, env: Env, context: InvocationContext): Promise<void> {
  let messages = batch.messages;
  if (batch.queue === QUEUE_NAMES.events) {
    await countTrackingBatch(messages.filter(isTrackingHits), env);
    messages = messages.filter((m) => !isTrackingHits(m));
  }
  const parallel = batch.queue === QUEUE_NAMES.send ? SEND_CONCURRENCY : 1;
  let next = 0;
  const lane = async () => {
    while (next < messages.length) await dispatchOne(batch, messages[next++], env, context);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, messages.length) }, lane));
}

/** One message: to its handler, acked when that succeeds, retried with backoff when it throws. */
async function dispatchOne(batch: MessageBatch<QueueMessageBody>, message: Message<QueueMessageBody>, env: Env, context: InvocationContext): Promise<void> {
  if (isDeadLetterQueue(batch.queue)) {
    console.error(JSON.stringify({ level: 'error', dead_letter: batch.queue, id: message.id, body: message.body }));
    message.ack();
    return;
  }
  const handler = handlersByQueue[batch.queue]?.[message.body?.kind];
  try {
    if (!handler) throw new Error(`no handler for message kind "${message.body?.kind}" on ${batch.queue}`);
    await handler(message.body, env, message, context);
    message.ack();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', queue: batch.queue, id: message.id, error: String(error) }));
    message.retry({ delaySeconds: Math.min(300, 2 ** message.attempts) });
  }
}
