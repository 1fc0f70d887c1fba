import type { Env } from '../../env';

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
  /** A keyed hash of the client address (see hashAddress). */
  ip: string | null;
  asn: number | null;
  aso: string | null;
  at: string;
}

export interface TrackingHitsBody {
  kind: typeof TRACKING_HITS_KIND;
  hits: TrackingHit[];
  [key: string]: unknown;
}

const encoder = new TextEncoder();

/**
 * Tells client addresses apart without storing them: SHA-256 of the address with a secret and the day (a burst
 * is seconds long; the same address tomorrow is not linkable to today's), 16 hex characters.
 */
export async function hashAddress(secret: string, address: string | null, at: Date): Promise<string | null> {
  if (!address) return null;
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${secret}\u0000${at.toISOString().slice(0, 10)}\u0000${address}`));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Puts one hit on the events queue. Each request sends its own (the caller keeps it in waitUntil, after the
 * answer): promises cannot be shared between requests on Workers, so packing hits across requests would tie
 * one request's life to another's.
 */
export async function queueHit(env: Pick<Env, 'EVENTS_QUEUE'>, hit: TrackingHit): Promise<void> {
  const body: TrackingHitsBody = { kind: TRACKING_HITS_KIND, hits: [hit] };
  // A queue write that fails is tried twice more before the hit is given up (and logged by the caller).
  for (let tries = 1; ; tries++) {
    try {
      await env.EVENTS_QUEUE.send(body);
      return;
    } catch (error) {
      if (tries >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * tries));
    }
  }
}
