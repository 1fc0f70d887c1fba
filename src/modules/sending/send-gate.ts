import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

// The send gate of an integration: its optional maximum rate (messages per second) and the hold a provider's
// "try later" puts on it, shared by every broadcast and test message that sends through it at the same time.
// Both live on the integration row, and a reservation is one conditional UPDATE: D1 runs statements one at a
// time, so two consumers can never take the same slot.

/** A consumer waits for its slot in the same invocation up to this long; beyond it the batch is retried later. */
export const MAX_WAIT_MS = 20_000;
/** A provider's first "try later" holds the integration this long; each one in a row doubles it, up to MAX_HOLD_MS. */
export const FIRST_HOLD_MS = 2_000;
export const MAX_HOLD_MS = 300_000;

export type Reservation = { granted: true; waitMs: number } | { granted: false; retryInMs: number };

/**
 * Reserves `count` sends on the integration: answers how long to wait before sending them, or, when the slot
 * is further away than MAX_WAIT_MS, that nothing was reserved and when to try again. Without a rate and
 * without a hold, it answers at once (and writes nothing).
 */
export async function reserveSends(db: Database, orgId: number, integrationId: number, count: number, now = Date.now()): Promise<Reservation> {
  // start = max(now, next_slot_at, held_until); the reservation takes count / rate seconds from there.
  const start = sql`max(${now}, CASE WHEN max_rate > 0 THEN next_slot_at ELSE 0 END, held_until)`;
  const span = sql`CAST(${count} * 1000.0 / max_rate AS INTEGER)`;
  const [row] = await db.all<{ next_slot_at: number; max_rate: number | null; held_until: number; span: number }>(sql`
    UPDATE integrations SET next_slot_at = CASE WHEN max_rate > 0 THEN ${start} + ${span} ELSE next_slot_at END
    WHERE id = ${integrationId} AND org_id = ${orgId} AND ${start} <= ${now + MAX_WAIT_MS}
    RETURNING next_slot_at, max_rate, held_until, CASE WHEN max_rate > 0 THEN ${span} ELSE 0 END AS span`);
  if (row) {
    // RETURNING sees the new row: with a rate, the reserved slot began `span` before the new next_slot_at.
    const begins = Number(row.max_rate) > 0 ? Number(row.next_slot_at) - Number(row.span) : Math.max(now, Number(row.held_until));
    return { granted: true, waitMs: Math.max(0, begins - now) };
  }
  const [gate] = await db.all<{ next: number | null }>(
    sql`SELECT max(CASE WHEN max_rate > 0 THEN next_slot_at ELSE 0 END, held_until) AS next FROM integrations WHERE id = ${integrationId} AND org_id = ${orgId}`,
  );
  // A vanished integration: let the caller find that out when it loads it.
  if (!gate) return { granted: true, waitMs: 0 };
  return { granted: false, retryInMs: Math.max(1_000, Number(gate.next) - now - MAX_WAIT_MS / 2) };
}

/** A provider said "try later": hold the integration, twice as long as last time if it keeps saying so. */
export async function holdIntegration(db: Database, orgId: number, integrationId: number, now = Date.now()): Promise<number> {
  const [row] = await db.all<{ held_until: number }>(sql`
    UPDATE integrations SET
      held_until = max(held_until, ${now} + min(${MAX_HOLD_MS}, ${FIRST_HOLD_MS} * (1 << min(throttle_level, 16)))),
      throttle_level = throttle_level + 1
    WHERE id = ${integrationId} AND org_id = ${orgId}
    RETURNING held_until`);
  return row ? Number(row.held_until) : now;
}

/** A batch got through: the provider is no longer pushing back (writes only when it was). */
export async function releaseIntegration(db: Database, orgId: number, integrationId: number): Promise<void> {
  await db.run(sql`UPDATE integrations SET throttle_level = 0 WHERE id = ${integrationId} AND org_id = ${orgId} AND throttle_level > 0`);
}
