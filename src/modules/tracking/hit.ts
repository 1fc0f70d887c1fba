import type { Env } from '../../env';
import { spillHits } from './spill';

// A tracking hit as it travels from the request to the events queue: everything the consumer needs to count and
// classify it, and nothing it could not trust (the organisation and message come from the signed token).

export const TRACKING_HITS_KIND = 'tracking-hits';

export interface TrackingHit {
  /** Made on arrival: the consumer inserts each id once, so a redelivery counts nothing twice. */
  id: string;
  o: number;
  m: number;
  kind: 'open' | 'click';
  /** Link index and URL (clicks); h = 1 for the honeypot. */
  l?: number;
  u?: string;
  h?: 1;
  method: string;
  ua: string | null;
  /**
   * The client's address as the request came. Hashing it costs more than the rest of the answer, so the
   * consumer hashes it (hashAddress) before it counts or stores anything: only the hash is ever written.
   */
  address: string | null;
  /** The address's hash, when it was hashed before the consumer: a spilled batch (spill.ts) holds no address. */
  ih?: string | null;
  asn: number | null;
  aso: string | null;
  at: string;
}

export interface TrackingHitsBody {
  kind: typeof TRACKING_HITS_KIND;
  hits: TrackingHit[];
}

/** How long a hit waits for others from the same isolate before they go to the queue together. */
export const HIT_BATCH_WAIT_MS = 20;
/** A queue message holds at most 128 KB: a batch stays well under it. */
const HIT_BATCH_MAX_CHARS = 96_000;

interface PendingBatch {
  hits: TrackingHit[];
  chars: number;
}

/** The open batch of each events queue binding (tests swap the binding; a batch never crosses to another). */
const openBatches = new WeakMap<Queue, PendingBatch>();

/**
 * Puts a hit on the events queue, a batch at a time: a burst of opens reaches one isolate as hundreds of requests
 * a second, and one queue write per hit would cost more than the answer itself. The request that opens a batch
 * owns it: it waits HIT_BATCH_WAIT_MS (in its waitUntil, after its answer) and sends what gathered; other requests
 * only add their hit to it and share nothing else, so no request ever awaits another's work.
 */
export function queueHit(env: Pick<Env, 'EVENTS_QUEUE' | 'FILES' | 'SECRETS_KEY'>, ctx: Pick<ExecutionContext, 'waitUntil'>, hit: TrackingHit): void {
  const queue = env.EVENTS_QUEUE;
  // Its size in the message, near enough (the fixed fields take well under 400 characters).
  const chars = 400 + (hit.ua?.length ?? 0) + (hit.u?.length ?? 0) + (hit.aso?.length ?? 0);
  const open = openBatches.get(queue);
  if (open && open.chars + chars <= HIT_BATCH_MAX_CHARS) {
    open.hits.push(hit);
    open.chars += chars;
    return;
  }
  const batch: PendingBatch = { hits: [hit], chars };
  openBatches.set(queue, batch);
  ctx.waitUntil(sendBatchLater(queue, env, batch));
}

async function sendBatchLater(queue: Queue, env: Pick<Env, 'FILES' | 'SECRETS_KEY'>, batch: PendingBatch): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, HIT_BATCH_WAIT_MS));
  // Closed: hits from now on open the next batch.
  if (openBatches.get(queue) === batch) openBatches.delete(queue);
  const body: TrackingHitsBody = { kind: TRACKING_HITS_KIND, hits: batch.hits };
  // A queue write that fails is tried twice more; then the hits go to R2, where the cron counts them (spill.ts).
  for (let tries = 1; tries <= 3; tries++) {
    try {
      await queue.send(body);
      return;
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', tracking_queue_write: tries, hits: batch.hits.length, error: String(error) }));
      if (tries < 3) await new Promise((resolve) => setTimeout(resolve, 100 * tries));
    }
  }
  try {
    await spillHits(env, batch.hits);
  } catch (error) {
    // Queue and R2 both down: the hits are logged whole, the last place they exist.
    console.error(JSON.stringify({ level: 'error', tracking_hits_lost: batch.hits, error: String(error) }));
  }
}
