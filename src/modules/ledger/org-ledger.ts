import { DurableObject } from 'cloudflare:workers';
import { createDb } from '../../db/client';
import type { Env } from '../../env';
import type { ApiLimits } from '../../context';
import { admitRequest, recordRevokedKey, type KeyAdmission } from '../api-key/rate-limit';
import { countOrgHits } from '../tracking/count';
import type { TrackingHit } from '../tracking/hit';
import { beginIdempotentSql, finishIdempotentSql, releaseIdempotentSql, type IdempotentBegin } from '../idempotency/ledger-side';
import { holdGate, releaseGate, reserveOnGate, type GateLane, type GateState, type Reservation } from '../sending/send-gate';
import { blockStart } from './ids';
import { endpointMirrors, markWebhookMirrorLoaded, webhookMirrorLoaded } from '../webhook/mirror-rows';
import { migrateLedger, startIdsAt } from './ledger-schema';
import { localLedgerDb } from './ledger-db';
import { runStatements, type LedgerResult, type LedgerStatement } from './ledger-statements';
import { projectBroadcasts, projectionDue, PROJECTION_RETRY_MS, PROJECTION_SOON_MS } from './projection';
import type { ApiLimitRefusal } from '../api-key/rate-limit';
import { acceptSends, laneWatchOf, nextLaneWatch, takeDueSingles, type AcceptRequest, type AcceptResult } from '../transactional/lane';
import { acceptHooks, type HourlyLimits, type IdempotencyRef } from '../transactional/ledger-hooks';
import { enqueueSingles } from '../transactional/enqueue';
import { absorbOutbox } from '../event/absorb';
import { pruneStream, readStream, type StoredEvent } from '../event/stream';
import { LEDGER_NOT_INITIALISED, LEDGER_WRONG_OWNER, sameOwner, type LedgerAnswer, type LedgerOwner } from './owner';
import { dispatchWebhooks, dropWebhookLeftovers, RETENTION_EVERY_MS } from '../webhook/dispatch';
import {
  listDeliveryRows,
  nextWebhookWork,
  replayEvent,
  replayEventsSince,
  setMirror,
  settleFlightRows,
  type AttemptResult,
  type DeliveryQuery,
  type DeliveryRow,
  type MirrorChange,
} from '../webhook/ledger-side';
import { nextAttemptAt } from '../webhook/schedule';

/**
 * The tenant ledger: one Durable Object with SQLite storage per organisation (design: ../shared/design/tenant-ledger.md),
 * the single writer of the organisation's per-send state, so that state never goes through the platform's shared,
 * single-threaded D1: its messages with their claims and outcomes, tracking events, link clicks, kept list totals,
 * daily figures, a started broadcast's status and counters (projected into D1 by the alarm: projection.ts), the
 * send gates of its integrations, the token buckets of its API keys' limits and the send API's idempotency keys. The
 * worker reaches the tables through `run` (ledger-db.ts: drizzle queries written for D1's tables of the same names);
 * the gates, the buckets, the idempotency keys, the send lane and the tracking count have calls of their own.
 *
 * It is reached only through the D1 registry (registry.ts), refuses every call until `init` made it for its owner,
 * and checks the owner on every call: a name alone (idFromName makes an object for any name) reaches nothing.
 * An uninitialised object writes nothing, so a stray call never leaves storage behind. Every method answers a
 * LedgerAnswer (owner.ts): the refusal is a value the worker's side turns into an error.
 */
export class OrgLedger extends DurableObject<Env> {
  private owner: LedgerOwner | null = null;
  /** The tracking count running now: the next waits for it (countHits). */
  private counting: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.owner = this.storedOwner();
      if (this.owner) {
        migrateLedger(ctx.storage);
        // A ledger older than the organisation's webhook endpoints fills their mirror once.
        if (!webhookMirrorLoaded(ctx.storage.sql)) await this.loadWebhookEndpoints(this.owner);
        // A projection the last run of the object left undone, and the single messages' watch (a restart forgets alarms locally).
        await this.projectLater();
        await this.watchLaneLater();
        await this.deliverLater();
      }
    });
  }

  /**
   * Makes the ledger its owner's, its message ids starting above block `idBase` (ids.ts); answers the owner.
   * Repeating it for the same owner changes nothing (but gives a ledger made before ids had blocks its block).
   */
  init(owner: LedgerOwner, idBase: number): LedgerAnswer<LedgerOwner> {
    if (!this.owner) {
      migrateLedger(this.ctx.storage);
      this.ctx.storage.sql.exec(
        'INSERT INTO ledger_owner (id, org_id, ledger_key, generation, initialised_at) VALUES (1, ?, ?, ?, ?)',
        owner.orgId,
        owner.key,
        owner.generation,
        Date.now(),
      );
      this.owner = { ...owner };
    }
    return this.serve(owner, () => {
      startIdsAt(this.ctx.storage.sql, blockStart(idBase));
      return this.owner!;
    });
  }

  /** Runs statements the worker built for D1's tables on the ledger's, in one transaction (ledger-db.ts). */
  async run(owner: LedgerOwner, statements: LedgerStatement[]): Promise<LedgerAnswer<LedgerResult[]>> {
    const answer = this.serve(owner, () => runStatements(this.ctx.storage, statements));
    // Only a write can have moved a broadcast: reads (most calls) skip the projection check.
    if (answer.ok && answer.value.some((result) => result.meta.rows_written > 0)) {
      await this.projectLater();
      await this.deliverLater();
    }
    return answer;
  }

  /**
   * Takes a send call's messages (src/modules/transactional): its hourly limits, the rows and its Idempotency-Key's
   * answer in one transaction, then makes sure the lane's watch looks after them (lane.ts).
   */
  async acceptSends(
    owner: LedgerOwner,
    req: AcceptRequest,
    limits: HourlyLimits | null,
    idempotency: IdempotencyRef | null,
    now: number,
  ): Promise<LedgerAnswer<AcceptResult<ApiLimitRefusal>>> {
    const answer = this.serve(owner, () => acceptSends(this.ctx.storage, req, acceptHooks(limits, idempotency, now), now));
    if (answer.ok && answer.value.ok) {
      const watch = laneWatchOf(req.rows, now);
      if (watch !== null) await this.setAlarmAt(watch);
      await this.deliverLater();
    }
    return answer;
  }

  /** Hands the queue the single messages due or lost (lane.ts); a failure is retried by the next watch. */
  private async watchLane(): Promise<void> {
    const owner = this.owner!;
    const ids = takeDueSingles(this.ctx.storage.sql, Date.now());
    if (ids.length === 0) return;
    try {
      await enqueueSingles(this.env, owner.orgId, ids);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', ledger: 'lane', org: owner.orgId, error: String(error) }));
    }
  }

  /** Sets the alarm for the lane's next watch, if any single message is unfinished. */
  private async watchLaneLater(): Promise<void> {
    const next = nextLaneWatch(this.ctx.storage.sql, Date.now());
    if (next !== null) await this.setAlarmAt(next);
  }

  /** The alarm's work: the lane's watch, the webhooks' flights, then, when due, the broadcasts that changed into D1 (projection.ts). */
  async alarm(): Promise<void> {
    this.alarmAt = null;
    if (!this.owner) return;
    await this.watchLane();
    await this.watchLaneLater();
    await this.dispatchWebhooks();
    // The alarm also wakes for the lane and the webhooks, often many times a second while both work: the projection
    // waits its own turn (a D1 write a second per ledger at most), taken up to a tenth of a second early.
    const due = projectionDue(this.ctx.storage.sql, this.projectedAt);
    if (due === null) return;
    if (due > Date.now() + PROJECTION_SOON_MS) return this.setAlarmAt(due);
    try {
      await projectBroadcasts(this.ctx.storage, createDb(this.env.DB));
      this.projectedAt = Date.now();
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', ledger: 'projection', org: this.owner.orgId, error: String(error) }));
      await this.setAlarmAt(Date.now() + PROJECTION_RETRY_MS);
      return;
    }
    await this.projectLater();
  }

  /**
   * Makes sure the alarm projects what changed: at once when a broadcast's status changed, else a second after the
   * last projection (so D1 sees one write a second per ledger at most while broadcasts send).
   */
  private async projectLater(): Promise<void> {
    const due = projectionDue(this.ctx.storage.sql, this.projectedAt);
    if (due !== null) await this.setAlarmAt(due);
  }

  private alarmAt: number | null = null;
  /** When the alarm last projected (epoch ms). */
  private projectedAt = 0;

  private async setAlarmAt(at: number): Promise<void> {
    if (this.alarmAt !== null && this.alarmAt <= at) return;
    this.alarmAt = at;
    await this.ctx.storage.setAlarm(at);
  }

  /** Reserves `count` sends on an integration's gate at `maxRate` messages per second (send-gate.ts). */
  reserveSends(
    owner: LedgerOwner,
    integrationId: number,
    maxRate: number | null,
    count: number,
    now: number,
    lane: GateLane = 'bulk',
  ): LedgerAnswer<Reservation> {
    return this.serve(owner, () =>
      this.ctx.storage.transactionSync(() => {
        const { state, reservation } = reserveOnGate(this.gate(integrationId), maxRate, count, now, lane);
        if (state) this.saveGate(integrationId, state);
        return reservation;
      }),
    );
  }

  /** A provider said "try later": answers the gate after the hold. */
  holdSends(owner: LedgerOwner, integrationId: number, now: number): LedgerAnswer<GateState> {
    return this.serve(owner, () => this.ctx.storage.transactionSync(() => this.saveGate(integrationId, holdGate(this.gate(integrationId), now))));
  }

  /** A batch got through: the provider stopped pushing back. */
  releaseSends(owner: LedgerOwner, integrationId: number): LedgerAnswer<GateState> {
    return this.serve(owner, () => this.ctx.storage.transactionSync(() => this.saveGate(integrationId, releaseGate(this.gate(integrationId)))));
  }

  /**
   * Admits one request of organisation API key `keyId`: a token from the key's requests-per-second bucket and one
   * from the organisation's, both or neither (src/modules/api-key/rate-limit.ts). Called on the first ledger, which
   * holds the organisation-wide state.
   */
  admitApiRequest(owner: LedgerOwner, keyId: number, limits: ApiLimits, now: number): LedgerAnswer<KeyAdmission> {
    return this.serve(owner, () => admitRequest(this.ctx.storage.sql, keyId, limits, now));
  }

  /** Marks an organisation key revoked for admitApiRequest (on the first ledger); again changes nothing. */
  revokeApiKey(owner: LedgerOwner, keyId: number): LedgerAnswer<null> {
    return this.serve(owner, () => {
      recordRevokedKey(this.ctx.storage.sql, keyId);
      return null;
    });
  }

  /**
   * Counts a group of the organisation's tracking hits (addresses already hashed), after the groups before it: a
   * message's hits are classified against its earlier ones (src/modules/tracking/count.ts), so two groups of one
   * organisation must never be counted at the same time, while other organisations' ledgers count theirs meanwhile.
   */
  async countHits(owner: LedgerOwner, hits: TrackingHit[]): Promise<LedgerAnswer<number>> {
    const allowed = this.serve(owner, () => hits.length);
    if (!allowed.ok) return allowed;
    const turn = this.counting.then(async () => {
      await countOrgHits(this.env, localLedgerDb(this.ctx.storage), owner.orgId, hits);
      await this.projectLater();
      await this.deliverLater();
    });
    this.counting = turn.catch(() => undefined);
    await turn;
    return allowed;
  }

  /** Claims an idempotency key for a request, or answers why not (src/modules/idempotency/ledger-side.ts). */
  beginIdempotent(owner: LedgerOwner, scope: string, key: string, requestHash: string, now: number): LedgerAnswer<IdempotentBegin> {
    return this.serve(owner, () => this.ctx.storage.transactionSync(() => beginIdempotentSql(this.ctx.storage.sql, scope, key, requestHash, now)));
  }

  /** Stores the answer of the request holding an idempotency key, for its retries to replay. */
  finishIdempotent(owner: LedgerOwner, scope: string, key: string, status: number, body: string): LedgerAnswer<null> {
    return this.serve(owner, () => {
      finishIdempotentSql(this.ctx.storage.sql, scope, key, status, body);
      return null;
    });
  }

  /** Frees an idempotency key whose request did nothing, so the client may retry it. */
  releaseIdempotent(owner: LedgerOwner, scope: string, key: string): LedgerAnswer<null> {
    return this.serve(owner, () => {
      releaseIdempotentSql(this.ctx.storage.sql, scope, key);
      return null;
    });
  }

  // Webhooks (src/modules/webhook)

  /** Sets or removes an endpoint's mirror row (src/modules/webhook/mirror.ts calls it on every ledger). */
  async mirrorWebhookEndpoint(owner: LedgerOwner, change: MirrorChange, now: number): Promise<LedgerAnswer<null>> {
    const answer = this.serve(owner, () => this.ctx.storage.transactionSync(() => setMirror(this.ctx.storage.sql, change, now)) ?? null);
    if (answer.ok) await this.deliverLater();
    return answer;
  }

  /** Copies the organisation's endpoints from D1 into the mirror: a ledger made after they were (registry.ts). */
  async loadWebhookEndpoints(owner: LedgerOwner): Promise<LedgerAnswer<number>> {
    const allowed = this.serve(owner, () => 0);
    if (!allowed.ok) return allowed;
    const mirrors = await endpointMirrors(createDb(this.env.DB), owner.orgId);
    const now = Date.now();
    this.ctx.storage.transactionSync(() => {
      for (const mirror of mirrors) setMirror(this.ctx.storage.sql, mirror, now);
      markWebhookMirrorLoaded(this.ctx.storage.sql, now);
    });
    await this.deliverLater();
    return { ok: true, value: mirrors.length };
  }

  /** An endpoint's deliveries in this ledger, newest first. */
  listWebhookDeliveries(owner: LedgerOwner, endpointId: number, query: DeliveryQuery): LedgerAnswer<DeliveryRow[]> {
    return this.serve(owner, () => listDeliveryRows(this.ctx.storage.sql, endpointId, query));
  }

  /** Replays one event (by id) or every event since an instant (ISO) to an endpoint; answers how many deliveries. */
  async replayWebhook(owner: LedgerOwner, endpointId: number, what: { eventId: string } | { sinceIso: string }, now: number): Promise<LedgerAnswer<number>> {
    const sql = this.ctx.storage.sql;
    const answer = this.serve(owner, () =>
      'eventId' in what ? replayEvent(sql, endpointId, what.eventId, now) : replayEventsSince(sql, endpointId, what.sinceIso, now),
    );
    if (answer.ok && answer.value > 0) await this.deliverLater();
    return answer;
  }

  /** A flight's report from the consumer (src/modules/webhook/deliver.ts), in one transaction. */
  async settleFlight(owner: LedgerOwner, endpointId: number, flightId: string, results: AttemptResult[]): Promise<LedgerAnswer<null>> {
    const answer = this.serve(owner, () => {
      this.ctx.storage.transactionSync(() =>
        settleFlightRows(this.ctx.storage.sql, endpointId, flightId, results, (attempts) => nextAttemptAt(this.env, attempts, Date.now())),
      );
      return null;
    });
    if (answer.ok) await this.deliverLater();
    return answer;
  }

  /** When the webhooks' retention last ran in this object (epoch ms). */
  private webhooksKeptAt = 0;

  /** The alarm's webhook work: flights out (dispatch.ts), now and then the retention; then the next alarm. */
  private async dispatchWebhooks(): Promise<void> {
    const owner = this.owner!;
    try {
      const now = Date.now();
      await dispatchWebhooks(this.env, this.ctx.storage, owner, now);
      if (now - this.webhooksKeptAt >= RETENTION_EVERY_MS) {
        this.webhooksKeptAt = now;
        dropWebhookLeftovers(this.env, this.ctx.storage, now);
      }
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', ledger: 'webhooks', org: owner.orgId, error: String(error) }));
    }
    await this.deliverLater();
  }

  /** Sets the alarm for the earliest due delivery or flight lease, if any (cheap through the indexes). */
  private async deliverLater(): Promise<void> {
    const next = nextWebhookWork(this.ctx.storage.sql);
    if (next !== null) await this.setAlarmAt(Math.max(next, Date.now()));
  }

  // The event stream (src/modules/event)

  /** The absorption running now: the next waits for it, and calls meanwhile share the one after it (absorbEvents). */
  private absorbing: Promise<number> = Promise.resolve(0);
  private absorbNext: Promise<number> | null = null;

  /**
   * Takes D1's outbox of the organisation into the stream (src/modules/event/absorb.ts); only the first ledger does.
   * One absorption at a time; calls made while one runs share a single next one, which sees what they announced.
   */
  async absorbEvents(owner: LedgerOwner): Promise<LedgerAnswer<number>> {
    const allowed = this.serve(owner, () => 0);
    if (!allowed.ok || owner.generation !== 0) return allowed;
    if (!this.absorbNext) {
      const next = this.absorbing
        .catch(() => 0)
        .then(() => {
          this.absorbNext = null;
          return absorbOutbox(this.ctx.storage, createDb(this.env.DB), owner.orgId);
        })
        .then(async (absorbed) => {
          // The absorbed events' deliveries (made by the events_deliveries trigger) are due now.
          if (absorbed > 0) await this.deliverLater();
          return absorbed;
        });
      this.absorbNext = next;
      this.absorbing = next;
    }
    return { ok: true, value: await this.absorbNext };
  }

  /** Up to `limit` events after `afterSeq`, oldest first (the pull API: src/modules/event/pull.ts). */
  readEvents(owner: LedgerOwner, afterSeq: number, types: string[] | null, limit: number): LedgerAnswer<StoredEvent[]> {
    return this.serve(owner, () => readStream(this.ctx.storage.sql, afterSeq, types, limit));
  }

  /** Deletes a bounded chunk of events older than `before` (ISO 8601); answers how many went. */
  pruneEvents(owner: LedgerOwner, before: string): LedgerAnswer<number> {
    return this.serve(owner, () => pruneStream(this.ctx.storage, before));
  }

  /** Bytes of the ledger's SQLite storage (the size guard's measure). */
  size(owner: LedgerOwner): LedgerAnswer<number> {
    return this.serve(owner, () => this.ctx.storage.sql.databaseSize);
  }

  /** Empties the ledger for good (its organisation was deleted): storage and alarm. */
  async destroy(owner: LedgerOwner): Promise<LedgerAnswer<null>> {
    const refused = this.serve(owner, () => null);
    if (!refused.ok) return refused;
    await this.ctx.storage.deleteAll();
    this.owner = null;
    return { ok: true, value: null };
  }

  /** Runs `work` for the ledger's own owner; anyone else gets the refusal. */
  private serve<T>(owner: LedgerOwner, work: () => T): LedgerAnswer<T> {
    if (!this.owner) return { ok: false, refused: LEDGER_NOT_INITIALISED };
    if (!sameOwner(this.owner, owner)) return { ok: false, refused: LEDGER_WRONG_OWNER };
    return { ok: true, value: work() };
  }

  /** The owner recorded in storage; reads only, so an object never initialised stays empty. */
  private storedOwner(): LedgerOwner | null {
    const sql = this.ctx.storage.sql;
    const table = sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ledger_owner'").toArray();
    if (table.length === 0) return null;
    const row = sql.exec<{ org_id: number; ledger_key: string; generation: number }>('SELECT org_id, ledger_key, generation FROM ledger_owner').toArray()[0];
    return row ? { orgId: Number(row.org_id), key: String(row.ledger_key), generation: Number(row.generation) } : null;
  }

  private gate(integrationId: number): GateState {
    const row = this.ctx.storage.sql
      .exec<{ next_slot_at: number; held_until: number; throttle_level: number; next_single_at: number; last_single_at: number; last_bulk_at: number }>(
        'SELECT next_slot_at, held_until, throttle_level, next_single_at, last_single_at, last_bulk_at FROM send_gates WHERE integration_id = ?',
        integrationId,
      )
      .toArray()[0];
    return row
      ? {
          nextSlotAt: Number(row.next_slot_at),
          heldUntil: Number(row.held_until),
          throttleLevel: Number(row.throttle_level),
          nextSingleAt: Number(row.next_single_at),
          lastSingleAt: Number(row.last_single_at),
          lastBulkAt: Number(row.last_bulk_at),
        }
      : { nextSlotAt: 0, heldUntil: 0, throttleLevel: 0, nextSingleAt: 0, lastSingleAt: 0, lastBulkAt: 0 };
  }

  private saveGate(integrationId: number, state: GateState): GateState {
    this.ctx.storage.sql.exec(
      `INSERT INTO send_gates (integration_id, next_slot_at, held_until, throttle_level, next_single_at, last_single_at, last_bulk_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (integration_id) DO UPDATE SET next_slot_at = excluded.next_slot_at, held_until = excluded.held_until, throttle_level = excluded.throttle_level,
         next_single_at = excluded.next_single_at, last_single_at = excluded.last_single_at, last_bulk_at = excluded.last_bulk_at`,
      integrationId,
      state.nextSlotAt,
      state.heldUntil,
      state.throttleLevel,
      state.nextSingleAt,
      state.lastSingleAt,
      state.lastBulkAt,
    );
    return state;
  }
}
