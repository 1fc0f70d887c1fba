import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { hashAddress } from './address-hash';
import { countHits } from './count';
import type { TrackingHit } from './hit';

// Where hits go when the events queue refuses them: an R2 object per batch under SPILL_PREFIX, counted by the cron
// with the same consumer code (countHits inserts each hit id once, so an object counted twice after a crash between
// counting and deleting changes nothing). The queue keeps D1 off the request path; this keeps a queue outage from
// losing the hits that arrived during it. Addresses are hashed before the write, as the consumer would hash them:
// storage never holds a client's address.

export const SPILL_PREFIX = 'system/tracking-spill/';
/** Objects one cron run counts at most (each holds one isolate batch: up to ~96 KB of hits). */
const PER_RUN = 200;

interface SpilledHits {
  hits: TrackingHit[];
}

/** Stores a batch the queue refused; the key sorts by time, so the oldest batch is counted first. */
export async function spillHits(env: Pick<Env, 'FILES' | 'SECRETS_KEY'>, hits: TrackingHit[]): Promise<void> {
  const hashed = await Promise.all(hits.map(async (h) => ({ ...h, address: null, ih: await hashAddress(env.SECRETS_KEY, h.address, new Date(h.at)) })));
  const body: SpilledHits = { hits: hashed };
  await env.FILES.put(`${SPILL_PREFIX}${new Date().toISOString()}-${crypto.randomUUID()}.json`, JSON.stringify(body), {
    httpMetadata: { contentType: 'application/json' },
  });
}

/** Counts the spilled batches and removes each once counted; answers how many batches were counted. */
export async function countSpilledHits(db: Database, env: Env): Promise<number> {
  const page = await env.FILES.list({ prefix: SPILL_PREFIX, limit: PER_RUN });
  let counted = 0;
  for (const { key } of page.objects) {
    try {
      const object = await env.FILES.get(key);
      if (!object) continue;
      const { hits } = (await object.json()) as SpilledHits;
      await countHits(env, db, hits);
      await env.FILES.delete(key);
      counted++;
    } catch (error) {
      // Left for the next run; one bad batch does not hold up the others.
      console.error(JSON.stringify({ level: 'error', tracking_spill: key, error: String(error) }));
    }
  }
  return counted;
}
