import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { served } from '../ledger/owner';
import { orgLedger, type LedgerHandle } from '../ledger/registry';

// The send gate of an integration: its optional maximum rate (messages per second) and the hold a provider's
// "try later" puts on it, shared by every broadcast and test message that sends through it at the same time.
// The gate lives in the organisation's ledger (src/modules/ledger), its one writer: a reservation is a call to
// it, never a D1 write, and two consumers can never take the same slot. The rule is the three functions below;
// the ledger applies them to the state it keeps. The hold is also copied onto the integration's D1 row, so a
// batch of an integration with no rate and no hold (most) needs no call at all.

/** A consumer waits for its slot in the same invocation up to this long; beyond it the batch is retried later. */
export const MAX_WAIT_MS = 20_000;
/** A provider's first "try later" holds the integration this long; each one in a row doubles it, up to MAX_HOLD_MS. */
export const FIRST_HOLD_MS = 2_000;
export const MAX_HOLD_MS = 300_000;

export type Reservation = { granted: true; waitMs: number } | { granted: false; retryInMs: number };

/**
 * The share of an integration's rate kept for single messages (transactional sends, test messages) while they are
 * being sent: a broadcast's batches cannot take it, so a password reset never waits behind a newsletter. Singles and
 * broadcasts each keep a line of their own; together they never pass the rate.
 */
export const SINGLES_SHARE = 0.25;
/** Singles seen within this long keep their share from the broadcasts; a broadcast reserving within it makes singles keep to theirs. */
export const LANE_ACTIVE_MS = 30_000;

/** Which line a reservation is for: a broadcast's batch, or single messages. */
export type GateLane = 'bulk' | 'single';

/** An integration's gate, epoch ms: when the next message may start at its rate on each line, and the provider's hold. */
export interface GateState {
  nextSlotAt: number;
  heldUntil: number;
  throttleLevel: number;
  /** The singles' line: when its next message may start, and when each line last reserved. */
  nextSingleAt: number;
  lastSingleAt: number;
  lastBulkAt: number;
}

/**
 * Reserves `count` sends: how long to wait before sending them, or, when the slot is further away than
 * MAX_WAIT_MS, that nothing was reserved and when to try again. The new state, or null when it is unchanged
 * (no rate: only a hold makes a batch wait).
 */
export function reserveOnGate(
  gate: GateState,
  maxRate: number | null,
  count: number,
  now: number,
  lane: GateLane = 'bulk',
): { state: GateState | null; reservation: Reservation } {
  const rate = maxRate && maxRate > 0 ? maxRate : 0;
  const single = lane === 'single';
  const start = Math.max(now, rate ? (single ? gate.nextSingleAt : gate.nextSlotAt) : 0, gate.heldUntil);
  if (start > now + MAX_WAIT_MS) return { state: null, reservation: { granted: false, retryInMs: Math.max(1_000, start - now - MAX_WAIT_MS / 2) } };
  const reservation: Reservation = { granted: true, waitMs: start - now };
  if (!rate) return { state: null, reservation };
  // Each line's rate: the whole rate while the other line is quiet, its share while both send.
  const otherActive = now - (single ? gate.lastBulkAt : gate.lastSingleAt) < LANE_ACTIVE_MS;
  const share = otherActive ? (single ? SINGLES_SHARE : 1 - SINGLES_SHARE) : 1;
  const next = start + Math.floor((count * 1000) / (rate * share));
  return {
    state: single ? { ...gate, nextSingleAt: next, lastSingleAt: now } : { ...gate, nextSlotAt: next, lastBulkAt: now },
    reservation,
  };
}

/** A provider said "try later": hold the integration, twice as long as last time if it keeps saying so. */
export function holdGate(gate: GateState, now: number): GateState {
  const hold = Math.min(MAX_HOLD_MS, FIRST_HOLD_MS * 2 ** Math.min(gate.throttleLevel, 16));
  return { ...gate, heldUntil: Math.max(gate.heldUntil, now + hold), throttleLevel: gate.throttleLevel + 1 };
}

/** A batch got through: the provider is no longer pushing back. */
export function releaseGate(gate: GateState): GateState {
  return { ...gate, throttleLevel: 0 };
}

/** The integration as the consumer loaded it (its D1 row). */
export interface GatedIntegration {
  id: number;
  maxRate: number | null;
  heldUntil: number;
  throttleLevel: number;
}

/** Whether a batch must ask the gate before sending: the integration has a rate, or a hold that has not run out. */
export const isGated = (integration: GatedIntegration, now = Date.now()) => (integration.maxRate ?? 0) > 0 || integration.heldUntil > now;

/** The organisation's ledger, which keeps its gates; throws when the organisation is gone. */
export async function gateLedger(env: Env, db: Database, orgId: number): Promise<LedgerHandle> {
  const ledger = await orgLedger(env, db, orgId);
  if (!ledger) throw new Error(`organisation ${orgId} is gone: its send gate cannot be reached`);
  return ledger;
}

/** Reserves `count` sends on the integration's gate, on the lane's line (see reserveOnGate). */
export async function reserveSends(
  { stub, owner }: LedgerHandle,
  integration: GatedIntegration,
  count: number,
  lane: GateLane = 'bulk',
  now = Date.now(),
): Promise<Reservation> {
  return served(await stub.reserveSends(owner, integration.id, integration.maxRate, count, now, lane));
}

/** Holds the integration (see holdGate) and copies the hold onto its D1 row; answers until when, epoch ms. */
export async function holdIntegration({ stub, owner }: LedgerHandle, db: Database, integrationId: number, now = Date.now()): Promise<number> {
  const gate = served(await stub.holdSends(owner, integrationId, now));
  await db.run(sql`
    UPDATE integrations SET held_until = max(held_until, ${gate.heldUntil}), throttle_level = ${gate.throttleLevel}
    WHERE id = ${integrationId} AND org_id = ${owner.orgId}`);
  return gate.heldUntil;
}

/** Releases the integration's hold level (see releaseGate) and its D1 copy. */
export async function releaseIntegration({ stub, owner }: LedgerHandle, db: Database, integrationId: number): Promise<void> {
  served(await stub.releaseSends(owner, integrationId));
  await db.run(sql`UPDATE integrations SET throttle_level = 0 WHERE id = ${integrationId} AND org_id = ${owner.orgId} AND throttle_level > 0`);
}
