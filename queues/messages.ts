// Typed bodies of every queue message. Each later capability adds its kinds here; a consumer that receives a
// kind it does not know retries it, so it ends in the dead-letter queue instead of being silently dropped.
export type QueueMessageBody = { kind: string; [key: string]: unknown };

export const QUEUE_NAMES = {
  send: 'relay-send',
  import: 'relay-import',
  events: 'relay-events',
} as const;

/**
 * Deliveries of one message on the send and import queues: the first plus `max_retries = 5` of their consumers
 * in wrangler.toml (change both together). The last delivery marks its message or import failed.
 */
export const QUEUE_MAX_DELIVERIES = 6;

export const isDeadLetterQueue = (name: string) => name.endsWith('-dlq');
