// The queues by name, how often a message is delivered, and which queues are dead-letter queues. The body of
// every message each queue carries is in queue-bodies.ts.

export const QUEUE_NAMES = {
  send: 'relay-send',
  /**
   * Single messages (transactional sends, test messages): their own line, so a broadcast's thousands of batches on
   * the send queue never stand in front of a password reset (Queues have no priority).
   */
  transactional: 'relay-transactional',
  import: 'relay-import',
  events: 'relay-events',
  /** Webhook flights (src/modules/webhook): their own line, so a slow receiver never holds up sending. */
  webhooks: 'relay-webhooks',
} as const;

/**
 * Deliveries of one message on the send, transactional and import queues: the first plus `max_retries = 5` of their consumers
 * in wrangler.toml (change both together). The last delivery marks its message or import failed.
 */
export const QUEUE_MAX_DELIVERIES = 6;

export const isDeadLetterQueue = (name: string) => name.endsWith('-dlq');

export type QueueRole = keyof typeof QUEUE_NAMES;

/**
 * Which of the queues a queue is, by the end of its name: a deployment's queues carry its prefix
 * (`relay-staging-send` for the staging environment, scripts/deploy.mjs), the role stays the last word.
 */
export function queueRole(name: string): QueueRole | null {
  if (isDeadLetterQueue(name)) return null;
  const role = /-(send|transactional|import|events|webhooks)$/.exec(name)?.[1];
  return (role as QueueRole | undefined) ?? null;
}
