import { createDb } from '../src/db/client';
import type { Env } from '../src/env';
import { countHits } from '../src/modules/tracking/count';
import { TRACKING_HITS_KIND, type TrackingHitsBody } from '../src/modules/tracking/hit';

/** Whether a queue message carries tracking hits. */
export const isTrackingHits = (message: Message<{ kind: string }>): message is Message<TrackingHitsBody> => message.body?.kind === TRACKING_HITS_KIND;

/**
 * The hits of tracking-hits bodies, counted in one pass: one call per organisation's ledger, each writing its share
 * at once (a broadcast's opens come in bursts). Throws when they could not be counted: the caller retries them all,
 * counting is idempotent per hit id.
 */
export async function countTrackingHits(bodies: TrackingHitsBody[], env: Env): Promise<void> {
  const hits = bodies.flatMap((body) => (Array.isArray(body.hits) ? body.hits : []));
  if (hits.length) await countHits(env, createDb(env.DB), hits);
}

/** The tracking hits of one events-queue batch, all acked together, or all retried when counting failed. */
export async function countTrackingBatch(messages: Message<TrackingHitsBody>[], env: Env): Promise<void> {
  try {
    await countTrackingHits(
      messages.map((m) => m.body),
      env,
    );
    for (const m of messages) m.ack();
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', queue: 'tracking', messages: messages.length, error: String(error) }));
    for (const m of messages) m.retry({ delaySeconds: Math.min(60, 2 ** m.attempts) });
  }
}
