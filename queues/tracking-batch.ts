import { createDb } from '../src/db/client';
import type { Env } from '../src/env';
import { countHits } from '../src/modules/tracking/count';
import { TRACKING_HITS_KIND, type TrackingHit, type TrackingHitsBody } from '../src/modules/tracking/hit';
import type { QueueMessageBody } from './messages';

/** Whether a queue message carries tracking hits. */
export const isTrackingHits = (message: Message<QueueMessageBody>) => message.body?.kind === TRACKING_HITS_KIND;

/**
 * The tracking hits of one events-queue batch, counted in one pass and one write (D1 has one writer; a broadcast's
 * opens come in bursts). All are acked together, or all retried: counting is idempotent per hit id.
 */
export async function countTrackingBatch(messages: Message<QueueMessageBody>[], env: Env): Promise<void> {
  const hits: TrackingHit[] = messages.flatMap((m) => {
    const body = m.body as unknown as TrackingHitsBody;
    return Array.isArray(body.hits) ? body.hits : [];
  });
  try {
    if (hits.length) await countHits(env, createDb(env.DB), hits);
    for (const m of messages) m.ack();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', queue: 'tracking', hits: hits.length, error: String(error) }));
    for (const m of messages) m.retry({ delaySeconds: Math.min(60, 2 ** m.attempts) });
  }
}
