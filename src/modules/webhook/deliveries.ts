import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { DeliveryState, WebhookDeliveryPage } from '../../shared/contracts/webhook';
import { served } from '../ledger/owner';
import { allLedgers } from '../ledger/registry';

// An endpoint's deliveries as the API and the console show them, and replays. The rows live in the organisation's
// ledgers (one per generation); each answers its own, merged here newest event first.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * A page of the endpoint's deliveries, newest event first; `before` is the previous page's `next_before` (an event's
 * seq). An endpoint of another organisation has none here (the mirror is per organisation).
 */
export async function listDeliveries(
  env: Env,
  db: Database,
  orgId: number,
  endpointId: number,
  query: { before?: number; state?: DeliveryState; limit: number },
): Promise<WebhookDeliveryPage> {
  const ledgers = await allLedgers(env, db, orgId);
  const pages = await Promise.all(
    ledgers.map(async (ledger) => served(await ledger.stub.listWebhookDeliveries(ledger.owner, endpointId, { ...query, limit: query.limit + 1 }))),
  );
  const rows = pages.flat().sort((a, b) => b.seq - a.seq || b.event_timestamp.localeCompare(a.event_timestamp));
  const page = rows.slice(0, query.limit);
  return {
    data: page.map((r) => ({
      seq: r.seq,
      event_id: r.event_id,
      event_type: r.event_type,
      event_timestamp: r.event_timestamp,
      state: r.state,
      attempts: r.attempts,
      last_status: r.last_status,
      last_error: r.last_error,
      last_ms: r.last_ms,
      last_at: iso(r.last_at),
      next_at: iso(r.next_at),
      delivered_at: iso(r.delivered_at),
    })),
    next_before: rows.length > query.limit ? (page.at(-1)?.seq ?? null) : null,
  };
}

/** Sends one event to the endpoint again (pending, attempts 0, due now); replayed 0: no such event of its types. */
export async function replayDelivery(env: Env, db: Database, orgId: number, endpointId: number, eventId: string): Promise<{ replayed: number }> {
  const ledgers = await allLedgers(env, db, orgId);
  const now = Date.now();
  const counts = await Promise.all(ledgers.map(async (l) => served(await l.stub.replayWebhook(l.owner, endpointId, { eventId }, now))));
  return { replayed: counts.reduce((a, b) => a + b, 0) };
}

/** Sends every event of the endpoint's types since `sinceIso` (within the stream's 30 days) again. */
export async function replaySince(env: Env, db: Database, orgId: number, endpointId: number, sinceIso: string): Promise<{ replayed: number }> {
  const ledgers = await allLedgers(env, db, orgId);
  const now = Date.now();
  const since = new Date(sinceIso).toISOString();
  const counts = await Promise.all(ledgers.map(async (l) => served(await l.stub.replayWebhook(l.owner, endpointId, { sinceIso: since }, now))));
  return { replayed: counts.reduce((a, b) => a + b, 0) };
}
