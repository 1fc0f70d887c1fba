import type { Env } from '../../env';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/contracts/webhook';
import type { LedgerOwner } from '../ledger/owner';
import { PAUSED_KEEP_MS } from '../../shared/contracts/webhook';
import { span } from './clock';
import type { WebhookFlightBody } from './flight-body';
import { dropOldDeliveries, expireFlights, returnFlight, takeFlights, type Flight } from './ledger-side';

// The dispatcher, run by the ledger's alarm: leases that passed put their deliveries back, then the due deliveries
// leave in flights (one queue message each, per endpoint at most FLIGHT_CAP at a time) for the consumer (deliver.ts).

const bodyOf = (owner: LedgerOwner, flight: Flight): WebhookFlightBody => ({
  kind: 'webhook-flight',
  orgId: owner.orgId,
  key: owner.key,
  generation: owner.generation,
  flightId: flight.id,
  endpointId: flight.endpointId,
  batch: flight.batch,
  events: flight.events,
});

/** Sends the due deliveries on their way; a flight the queue refused goes back at once. Answers how many flights left. */
export async function dispatchWebhooks(env: Env, storage: DurableObjectStorage, owner: LedgerOwner, now: number): Promise<number> {
  const flights = storage.transactionSync(() => {
    expireFlights(storage.sql, now);
    return takeFlights(storage.sql, now, WEBHOOK_TIMEOUT_MS);
  });
  const sent = await Promise.allSettled(flights.map((flight) => env.WEBHOOKS_QUEUE.send(bodyOf(owner, flight), { contentType: 'json' })));
  sent.forEach((result, i) => {
    if (result.status === 'fulfilled') return;
    console.error(JSON.stringify({ level: 'error', ledger: 'webhooks', org: owner.orgId, flight: flights[i].id, error: String(result.reason) }));
    returnFlight(storage.sql, flights[i].id, Date.now());
  });
  return sent.filter((r) => r.status === 'fulfilled').length;
}

/** How often a ledger drops deliveries no longer kept (real time: a cheap, bounded job). */
export const RETENTION_EVERY_MS = 10 * 60 * 1000;

/** Drops paused deliveries kept long enough and those whose event left the stream (bounded: ledger-side.ts). */
export const dropWebhookLeftovers = (env: Env, storage: DurableObjectStorage, now: number): number =>
  dropOldDeliveries(storage.sql, now - span(env, PAUSED_KEEP_MS));
