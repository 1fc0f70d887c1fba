import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { createDb, type Database } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { Env } from '../../env';
import { IsolateCache } from '../../lib/isolate-cache';
import { deliveryTurn } from '../../lib/sending-first';
import { FAILING_DISABLE_MS } from '../../shared/contracts/webhook';
import { ledgerStub } from '../ledger/registry';
import { ledgerName, served } from '../ledger/owner';
import { hasElapsed } from './clock';
import { disableEndpoint } from './disable';
import type { WebhookFlightBody } from './flight-body';
import type { AttemptResult } from './ledger-side';
import { postEvents, type EndpointTarget, type RequestOutcome } from './request';

// The webhooks queue's consumer: one flight (one endpoint's due events) at a time per message. The endpoint is read
// from D1 (briefly cached), each event is POSTed in order (or the lot as one batch request), and the outcome goes back
// to the flight's ledger in one call (settleFlight). 410 turns the endpoint off; failures for FAILING_DISABLE_MS too.

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** Endpoints by id for a few seconds: a flight after a change (rotation, new URL) sees it within that. */
const endpoints = new IsolateCache<number, EndpointRow | null>(2000);

/** Forgets the cached endpoints (tests, and a change made by this isolate). */
export const forgetEndpoints = () => endpoints.forget();

async function loadEndpoint(db: Database, orgId: number, id: number): Promise<EndpointRow | null> {
  let row = endpoints.get(id);
  if (row === undefined) {
    row = (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).limit(1))[0] ?? null;
    endpoints.set(id, row);
  }
  // Tenancy: a flight names its organisation; an endpoint of another is never used.
  return row && row.orgId === orgId ? row : null;
}

/** Delivers one flight and reports it to its ledger. Throws only when the report could not be made (the queue retries). */
export async function deliverFlight(env: Env, body: WebhookFlightBody): Promise<void> {
  const db = createDb(env.DB);
  const endpoint = await loadEndpoint(db, body.orgId, body.endpointId);
  const results: AttemptResult[] = [];
  if (!endpoint?.enabled) {
    for (const event of body.events) results.push({ seq: event.seq, outcome: 'skipped' });
  } else {
    await attempt(env, db, body, endpoint, results);
  }
  const stub = ledgerStub(env, ledgerName(body.key, body.generation));
  served(await stub.settleFlight({ orgId: body.orgId, key: body.key, generation: body.generation }, body.endpointId, body.flightId, results));
}

const failed = (seq: number, outcome: RequestOutcome, at: number): AttemptResult => ({
  seq,
  outcome: 'failed',
  status: outcome.status,
  error: outcome.error,
  ms: outcome.ms,
  at,
});

/** The flight's requests, into `results`; then the endpoint's failing state (and 410's or a failing day's end). */
async function attempt(env: Env, db: Database, body: WebhookFlightBody, endpoint: EndpointRow, results: AttemptResult[]): Promise<void> {
  const target: EndpointTarget = endpoint;
  let gone = false;
  let anyDelivered = false;
  let anyFailed = false;
  const record = (seqs: number[], outcome: RequestOutcome) => {
    const at = Date.now();
    for (const seq of seqs)
      results.push(outcome.ok ? { seq, outcome: 'delivered', status: outcome.status ?? 200, ms: outcome.ms, at } : failed(seq, outcome, at));
    if (outcome.ok) anyDelivered = true;
    else anyFailed = true;
    if (outcome.status === 410) gone = true;
  };
  if (body.batch) {
    await deliveryTurn(); // after this isolate's sending, if any (src/lib/sending-first.ts)
    record(
      body.events.map((e) => e.seq),
      await postEvents(env, target, body.events, true),
    );
  } else {
    let down: RequestOutcome | null = null;
    for (const event of body.events) {
      // After a 410 the endpoint is off, and after no answer (refused, timed out) it is down: the rest wait untried,
      // spending no attempt (the ledger probes a down endpoint before it sends the rest: noteAnswer in ledger-side.ts),
      // so a dead endpoint holds the consumer one timeout per flight. An answer (even a 5xx) is about that request:
      // the others are still tried.
      if (gone || down) results.push({ seq: event.seq, outcome: 'skipped' });
      else {
        await deliveryTurn();
        const outcome = await postEvents(env, target, [event], false);
        record([event.seq], outcome);
        if (!outcome.ok && outcome.status === null) down = outcome;
      }
    }
  }
  if (gone) {
    await disableEndpoint(env, db, body.orgId, endpoint, 'gone');
    forgetEndpoints();
  } else if (anyDelivered) {
    if (endpoint.failingSince) {
      await db
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpoint.id), isNotNull(webhookEndpoints.failingSince)));
      endpoints.forget((id) => id === endpoint.id);
    }
  } else if (anyFailed) {
    await noteFailure(env, db, body.orgId, endpoint);
  }
}

/** Marks the endpoint failing since now (if it was not); turns it off when it has been failing FAILING_DISABLE_MS. */
async function noteFailure(env: Env, db: Database, orgId: number, endpoint: EndpointRow): Promise<void> {
  const now = new Date().toISOString();
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now})` })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning({ failingSince: webhookEndpoints.failingSince });
  endpoints.forget((id) => id === endpoint.id);
  const since = row?.failingSince ? Date.parse(row.failingSince) : Number.NaN;
  if (Number.isFinite(since) && hasElapsed(env, since, FAILING_DISABLE_MS)) {
    await disableEndpoint(env, db, orgId, endpoint, 'failing');
  }
}
