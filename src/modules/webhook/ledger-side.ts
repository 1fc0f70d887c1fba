import { EVENT_KEEP_MS, WEBHOOK_BATCH_MAX, type DeliveryState } from '../../shared/contracts/webhook';

// The webhooks' work inside a ledger (the Durable Object's SQLite, ledger step 14): the endpoints' mirror, the
// deliveries' list and replays, taking due deliveries into flights (dispatch.ts sends them) and settling a flight's
// report. OrgLedger's thin methods call these; each runs in the caller's transaction when it needs one.

export interface MirrorUpdate {
  id: number;
  eventTypes: string[];
  enabled: boolean;
  batch: boolean;
  /** The endpoint's creation (ISO 8601): it takes the events that happened since. */
  since: string;
}
export type MirrorChange = MirrorUpdate | { id: number; deleted: true };

/** Sets (or removes) an endpoint's mirror row; off: its pending deliveries pause; on again: the paused go pending (due now). */
export function setMirror(sql: SqlStorage, change: MirrorChange, now: number): void {
  if ('deleted' in change) {
    sql.exec('DELETE FROM webhook_endpoints WHERE id = ?', change.id);
    sql.exec('DELETE FROM webhook_deliveries WHERE endpoint_id = ?', change.id);
    sql.exec('DELETE FROM webhook_flights WHERE endpoint_id = ?', change.id);
    return;
  }
  sql.exec(
    `INSERT INTO webhook_endpoints (id, event_types, enabled, batch, since) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET event_types = excluded.event_types, enabled = excluded.enabled, batch = excluded.batch, since = excluded.since`,
    change.id,
    JSON.stringify(change.eventTypes),
    change.enabled ? 1 : 0,
    change.batch ? 1 : 0,
    change.since,
  );
  if (change.enabled) {
    // An edit (a new URL, say) or turning it on again gives a down endpoint its chance at once.
    sql.exec('UPDATE webhook_endpoints SET down_until = NULL, down_tries = 0 WHERE id = ?', change.id);
    sql.exec("UPDATE webhook_deliveries SET state = 'pending', next_at = ? WHERE endpoint_id = ? AND state = 'paused'", now, change.id);
  } else {
    // `last_at` of a paused row is when it paused (its attempt's time is kept): the retention's clock.
    sql.exec("UPDATE webhook_deliveries SET state = 'paused', next_at = ? WHERE endpoint_id = ? AND state = 'pending'", now, change.id);
  }
}

export interface DeliveryRow {
  seq: number;
  event_id: string;
  event_type: string;
  event_timestamp: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  last_ms: number | null;
  last_at: number | null;
  next_at: number | null;
  delivered_at: number | null;
}

export interface DeliveryQuery {
  before?: number;
  state?: DeliveryState;
  limit: number;
}

/** An endpoint's deliveries in this ledger, newest event first. */
export function listDeliveryRows(sql: SqlStorage, endpointId: number, query: DeliveryQuery): DeliveryRow[] {
  // A pending delivery of an endpoint that is down waits for the endpoint's next probe, whatever its own time.
  const downUntil = Number(sql.exec<{ at: number | null }>('SELECT down_until AS at FROM webhook_endpoints WHERE id = ?', endpointId).toArray()[0]?.at ?? 0);
  const rows = sql
    .exec<Record<string, SqlStorageValue>>(
      `SELECT e.seq, e.id AS event_id, e.type AS event_type, e.at AS event_timestamp, d.state, d.attempts, d.last_status, d.last_error,
         d.last_ms, d.last_at, d.next_at, d.delivered_at
       FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq
       WHERE d.endpoint_id = ? AND d.event_seq < ? AND (? IS NULL OR d.state = ?)
       ORDER BY d.event_seq DESC LIMIT ?`,
      endpointId,
      query.before ?? Number.MAX_SAFE_INTEGER,
      query.state ?? null,
      query.state ?? null,
      query.limit,
    )
    .toArray();
  return rows.map((r) => ({
    seq: Number(r.seq),
    event_id: String(r.event_id),
    event_type: String(r.event_type),
    event_timestamp: String(r.event_timestamp),
    state: String(r.state) as DeliveryState,
    attempts: Number(r.attempts),
    last_status: r.last_status === null ? null : Number(r.last_status),
    last_error: r.last_error === null ? null : String(r.last_error),
    last_ms: r.last_ms === null ? null : Number(r.last_ms),
    last_at: r.last_at === null ? null : Number(r.last_at),
    next_at: r.state === 'pending' && r.next_at !== null ? Math.max(Number(r.next_at), downUntil) : null,
    delivered_at: r.delivered_at === null ? null : Number(r.delivered_at),
  }));
}

/**
 * Re-creates or resets to pending (attempts 0, due now) the deliveries to the endpoint of the events `where` picks
 * among those of its types; paused instead when the endpoint is off. A row in a flight leaves it (the flight's
 * report then finds it gone: at worst one more delivery). Answers how many.
 */
function replayWhere(sql: SqlStorage, endpointId: number, where: string, params: SqlStorageValue[], now: number): number {
  const endpoint = sql.exec<{ enabled: number }>('SELECT enabled FROM webhook_endpoints WHERE id = ?', endpointId).toArray()[0];
  if (!endpoint) return 0;
  const state = endpoint.enabled ? 'pending' : 'paused';
  sql.exec(
    `INSERT INTO webhook_deliveries (endpoint_id, event_seq, state, attempts, next_at)
     SELECT ?, e.seq, ?, 0, ? FROM events e, webhook_endpoints w
     WHERE w.id = ? AND ${where} AND EXISTS (SELECT 1 FROM json_each(w.event_types) WHERE value IN ('*', e.type))
     ON CONFLICT (endpoint_id, event_seq) DO UPDATE SET state = excluded.state, attempts = 0, next_at = excluded.next_at, flight_id = NULL`,
    endpointId,
    state,
    now,
    endpointId,
    ...params,
  );
  // changes(), not rowsWritten: that counts the index rows too.
  return Number(sql.exec<{ n: number }>('SELECT changes() AS n').one().n);
}

/** Replays one event (by its id) to the endpoint; 0 when this ledger does not hold it or the endpoint does not take its type. */
export const replayEvent = (sql: SqlStorage, endpointId: number, eventId: string, now: number): number =>
  replayWhere(sql, endpointId, 'e.id = ?', [eventId], now);

/** Replays every event of the endpoint's types since `sinceIso` (and within the stream's 30 days). */
export function replayEventsSince(sql: SqlStorage, endpointId: number, sinceIso: string, now: number): number {
  const oldest = new Date(now - EVENT_KEEP_MS).toISOString();
  const since = sinceIso > oldest ? sinceIso : oldest;
  return replayWhere(sql, endpointId, 'e.at >= ?', [since], now);
}

// --- Flights: the dispatcher's side.

/** Flights in flight per endpoint at most: one slow receiver holds at most this many queue messages. */
export const FLIGHT_CAP = 4;
/** Events of a flight for an endpoint without batches (sent one request each, in order, by the consumer). */
export const FLIGHT_SINGLES_MAX = 20;
/** A flight's events' data at most (a queue message holds 128 KB). */
export const FLIGHT_BYTES_MAX = 100_000;
/** A flight's lease: how long its report may take before its deliveries go back to pending (real time: the queue's). */
export const flightLeaseMs = (events: number, timeoutMs: number) => 120_000 + events * timeoutMs;

export interface FlightEvent {
  seq: number;
  id: string;
  type: string;
  timestamp: string;
  data: string;
}

export interface Flight {
  id: string;
  endpointId: number;
  batch: boolean;
  events: FlightEvent[];
}

/** Deliveries of flights whose lease passed go back to pending, due now. */
export function expireFlights(sql: SqlStorage, now: number): number {
  const expired = sql.exec<{ id: string }>('SELECT id FROM webhook_flights WHERE lease_until <= ?', now).toArray();
  for (const { id } of expired) {
    sql.exec("UPDATE webhook_deliveries SET state = 'pending', flight_id = NULL, next_at = ? WHERE flight_id = ? AND state = 'sending'", now, id);
    sql.exec('DELETE FROM webhook_flights WHERE id = ?', id);
  }
  return expired.length;
}

const newFlightId = () => `flt_${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Flights in flight for an endpoint at most: FLIGHT_CAP, or one (the probe) while it is down. */
const FLIGHT_CAP_SQL = `CASE WHEN w.down_tries > 0 THEN 1 ELSE ${FLIGHT_CAP} END`;

/**
 * Takes due pending deliveries into new flights (each endpoint under its cap; none for a down endpoint before its
 * probe), marking them sending under a lease.
 */
export function takeFlights(sql: SqlStorage, now: number, timeoutMs: number): Flight[] {
  const endpoints = sql
    .exec<{ id: number; batch: number; flying: number; cap: number }>(
      `SELECT w.id, w.batch, (SELECT count(*) FROM webhook_flights f WHERE f.endpoint_id = w.id) AS flying, ${FLIGHT_CAP_SQL} AS cap
       FROM webhook_endpoints w
       WHERE w.enabled = 1 AND (w.down_until IS NULL OR w.down_until <= ?)
         AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.state = 'pending' AND d.next_at <= ? AND d.endpoint_id = w.id)`,
      now,
      now,
    )
    .toArray();
  const flights: Flight[] = [];
  for (const endpoint of endpoints) {
    const batch = Number(endpoint.batch) === 1;
    for (let flying = Number(endpoint.flying); flying < Number(endpoint.cap); flying++) {
      const events = dueEvents(sql, Number(endpoint.id), now, batch ? WEBHOOK_BATCH_MAX : FLIGHT_SINGLES_MAX);
      if (events.length === 0) break;
      const flight: Flight = { id: newFlightId(), endpointId: Number(endpoint.id), batch, events };
      for (const event of events) {
        sql.exec(
          "UPDATE webhook_deliveries SET state = 'sending', flight_id = ? WHERE endpoint_id = ? AND event_seq = ?",
          flight.id,
          flight.endpointId,
          event.seq,
        );
      }
      sql.exec(
        'INSERT INTO webhook_flights (id, endpoint_id, lease_until) VALUES (?, ?, ?)',
        flight.id,
        flight.endpointId,
        now + flightLeaseMs(events.length, timeoutMs),
      );
      flights.push(flight);
    }
  }
  return flights;
}

/** The endpoint's due pending events, oldest first, up to `max` and FLIGHT_BYTES_MAX of data (one at least). */
function dueEvents(sql: SqlStorage, endpointId: number, now: number, max: number): FlightEvent[] {
  const rows = sql
    .exec<{ seq: number; id: string; type: string; at: string; data: string }>(
      // The pending in event order: the primary key's order would walk the delivered rows kept beside them.
      `SELECT e.seq, e.id, e.type, e.at, e.data FROM webhook_deliveries d INDEXED BY webhook_deliveries_pending JOIN events e ON e.seq = d.event_seq
       WHERE d.state = 'pending' AND d.next_at <= ? AND d.endpoint_id = ? ORDER BY d.event_seq LIMIT ?`,
      now,
      endpointId,
      max,
    )
    .toArray();
  const events: FlightEvent[] = [];
  let bytes = 0;
  for (const row of rows) {
    bytes += row.data.length + row.id.length + row.type.length + row.at.length + 64;
    if (events.length > 0 && bytes > FLIGHT_BYTES_MAX) break;
    events.push({ seq: Number(row.seq), id: row.id, type: row.type, timestamp: row.at, data: row.data });
  }
  return events;
}

/** Puts a flight that could not be queued back (pending, due now). */
export function returnFlight(sql: SqlStorage, flightId: string, now: number): void {
  sql.exec("UPDATE webhook_deliveries SET state = 'pending', flight_id = NULL, next_at = ? WHERE flight_id = ? AND state = 'sending'", now, flightId);
  sql.exec('DELETE FROM webhook_flights WHERE id = ?', flightId);
}

// --- Settling a flight's report.

/** One event's attempt: delivered, failed (tried again at `nextAt`), or not tried (the endpoint went off first). */
export type AttemptResult =
  | { seq: number; outcome: 'delivered'; status: number; ms: number; at: number }
  | { seq: number; outcome: 'failed'; status: number | null; error: string | null; ms: number | null; at: number }
  | { seq: number; outcome: 'skipped' };

/**
 * Applies a flight's report. A delivered event is delivered even when the flight's lease had passed (it was
 * pending again: one duplicate spared); a failure or a skip only touches what is still this flight's. A failed
 * attempt counts and waits its turn in the schedule (`nextAt(attempts)`); everything not delivered pauses when the
 * endpoint is off by now. The endpoint's own state follows (noteAnswer).
 */
export function settleFlightRows(sql: SqlStorage, endpointId: number, flightId: string, results: AttemptResult[], nextAt: (attempts: number) => number): void {
  const endpoint = sql
    .exec<{ enabled: number; down_until: number | null; down_tries: number }>(
      'SELECT enabled, down_until, down_tries FROM webhook_endpoints WHERE id = ?',
      endpointId,
    )
    .toArray()[0];
  const on = Number(endpoint?.enabled ?? 0) === 1;
  if (endpoint) noteAnswer(sql, endpointId, endpoint, results, nextAt);
  for (const result of results) {
    if (result.outcome === 'delivered') {
      sql.exec(
        `UPDATE webhook_deliveries SET state = 'delivered', flight_id = NULL, attempts = attempts + 1, last_status = ?, last_error = NULL, last_ms = ?,
           last_at = ?, delivered_at = ? WHERE endpoint_id = ? AND event_seq = ? AND (flight_id = ? OR state = 'pending')`,
        result.status,
        result.ms,
        result.at,
        result.at,
        endpointId,
        result.seq,
        flightId,
      );
    } else if (result.outcome === 'failed') {
      const row = sql
        .exec<{ attempts: number }>(
          'SELECT attempts FROM webhook_deliveries WHERE endpoint_id = ? AND event_seq = ? AND flight_id = ?',
          endpointId,
          result.seq,
          flightId,
        )
        .toArray()[0];
      if (!row) continue;
      const attempts = Number(row.attempts) + 1;
      sql.exec(
        `UPDATE webhook_deliveries SET state = ?, flight_id = NULL, attempts = ?, last_status = ?, last_error = ?, last_ms = ?, last_at = ?, next_at = ?
         WHERE endpoint_id = ? AND event_seq = ?`,
        on ? 'pending' : 'paused',
        attempts,
        result.status,
        result.error,
        result.ms,
        result.at,
        on ? nextAt(attempts) : result.at,
        endpointId,
        result.seq,
      );
    } else {
      sql.exec(
        'UPDATE webhook_deliveries SET state = ?, flight_id = NULL WHERE endpoint_id = ? AND event_seq = ? AND flight_id = ?',
        on ? 'pending' : 'paused',
        endpointId,
        result.seq,
        flightId,
      );
    }
  }
  // Rows the report did not name (it should name them all) go back to pending with the flight.
  sql.exec("UPDATE webhook_deliveries SET state = ?, flight_id = NULL WHERE flight_id = ? AND state = 'sending'", on ? 'pending' : 'paused', flightId);
  sql.exec('DELETE FROM webhook_flights WHERE id = ?', flightId);
}

/**
 * An endpoint that answered (any status) is up; one that did not (refused, timed out, an address refused) is down:
 * no flight until the schedule's next step for its `down_tries`, then one probe at a time. Its waiting deliveries
 * spend no attempts meanwhile (the consumer reports them untried), so a receiver that is down for an hour is
 * asked a few times, not once per event per step of the schedule, and gets every event when it is back.
 */
function noteAnswer(
  sql: SqlStorage,
  endpointId: number,
  endpoint: { down_until: number | null; down_tries: number },
  results: AttemptResult[],
  nextAt: (attempts: number) => number,
): void {
  const tries = Number(endpoint.down_tries);
  const answered = results.some((r) => r.outcome === 'delivered' || (r.outcome === 'failed' && r.status !== null));
  const unanswered = results.some((r) => r.outcome === 'failed' && r.status === null);
  if (answered) {
    if (tries > 0) sql.exec('UPDATE webhook_endpoints SET down_until = NULL, down_tries = 0 WHERE id = ?', endpointId);
    return;
  }
  // The other flights out when it went down report the same outage: only a report after the wait moves the schedule on.
  const waiting = endpoint.down_until !== null && Number(endpoint.down_until) > Date.now();
  if (unanswered && !waiting) sql.exec('UPDATE webhook_endpoints SET down_until = ?, down_tries = ? WHERE id = ?', nextAt(tries + 1), tries + 1, endpointId);
}

/**
 * When the dispatcher has work next: the earliest due pending delivery of an endpoint with room for a flight, or the
 * earliest flight lease; null when nothing waits. (A capped endpoint's next turn comes with its flight's report.)
 */
export function nextWebhookWork(sql: SqlStorage): number | null {
  const due =
    sql
      .exec<{ at: number | null }>(
        // One index seek per endpoint with room for a flight: run after every write of a sending broadcast, so it
        // must never walk the pending deliveries (an endpoint at its cap may have thousands waiting).
        // A down endpoint's turn is its probe's time at the earliest (max() of a NULL is NULL: nothing pending).
        `SELECT min(max(coalesce(w.down_until, 0),
           (SELECT d.next_at FROM webhook_deliveries d WHERE d.endpoint_id = w.id AND d.state = 'pending' ORDER BY d.next_at LIMIT 1))) AS at
         FROM webhook_endpoints w WHERE w.enabled = 1 AND (SELECT count(*) FROM webhook_flights f WHERE f.endpoint_id = w.id) < ${FLIGHT_CAP_SQL}`,
      )
      .toArray()[0]?.at ?? null;
  const lease = sql.exec<{ at: number | null }>('SELECT min(lease_until) AS at FROM webhook_flights').toArray()[0]?.at ?? null;
  const times = [due, lease].filter((t): t is number => t !== null).map(Number);
  return times.length > 0 ? Math.min(...times) : null;
}

/** Rows of retention removed per run at most, so an alarm stays short. */
export const RETENTION_CHUNK = 1000;

/**
 * Drops what is no longer kept, in bounded chunks: deliveries paused since before `pausedBefore` (their endpoint has
 * been off that long), and deliveries whose event left the stream. Answers how many rows went.
 */
export function dropOldDeliveries(sql: SqlStorage, pausedBefore: number): number {
  const paused = sql.exec(
    `DELETE FROM webhook_deliveries WHERE (endpoint_id, event_seq) IN (
       SELECT d.endpoint_id, d.event_seq FROM webhook_endpoints w JOIN webhook_deliveries d ON d.endpoint_id = w.id AND d.state = 'paused' AND d.next_at < ?
       LIMIT ?)`,
    pausedBefore,
    RETENTION_CHUNK,
  ).rowsWritten;
  const orphaned = sql.exec(
    `DELETE FROM webhook_deliveries WHERE (endpoint_id, event_seq) IN (
       SELECT d.endpoint_id, d.event_seq FROM webhook_endpoints w JOIN webhook_deliveries d ON d.endpoint_id = w.id
       AND d.event_seq < coalesce((SELECT min(seq) FROM events), 9e18) LIMIT ?)`,
    RETENTION_CHUNK,
  ).rowsWritten;
  return paused + orphaned;
}
