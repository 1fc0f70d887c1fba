import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts } from '../../db/schema';
import { rawBatch } from '../crud/raw-batch';
import { countClaimed, finishStatement } from '../sending/claim';
import { messageOutcomeStats } from '../stats/daily';
import { finishStatement as finishBroadcast, PAUSE_AFTER_UNREACHABLE, unreachablePause } from './lifecycle';
import { fromRaw, type BroadcastRow } from './run-store';

// The consumer's one write for a batch of broadcast messages, as one transaction of the organisation's ledger: the counters (counted
// from the rows this delivery still holds, before they change), the rows' outcomes, the finish check, and the
// broadcast as it now stands (for the live progress).

/** How the SMTP server answered this batch: reached, not reachable at all, or neither can be said. */
export type Reachability = { kind: 'reached' } | { kind: 'unreachable'; error: string } | { kind: 'unknown' };

/** The reason shown when the engine paused a broadcast because its server could not be reached. */
export const unreachableReason = (error: string) =>
  `Paused: the server could not be reached for ${PAUSE_AFTER_UNREACHABLE} batches in a row (${error.slice(0, 300)}). Fix the integration, then resume.`;

/**
 * Writes a batch's outcomes and moves the counters of its broadcasts; with `last` (the batch's last report) also
 * the finish check, and answers the broadcasts after the write (the reports while the batch still sends skip both:
 * a broadcast cannot finish while the batch holds rows of it).
 */
export async function recordBroadcastOutcomes(
  db: Database,
  orgId: number,
  broadcastIds: number[],
  token: string,
  json: string,
  reach: Reachability,
  heldUntil: number | null,
  last = true,
): Promise<BroadcastRow[]> {
  const now = new Date().toISOString();
  const unreachable = reach.kind === 'unreachable';
  // A hold this batch met extends the broadcast's; otherwise an earlier batch's hold stands until it runs out.
  const held = heldUntil ? new Date(heldUntil).toISOString() : null;
  const pause = unreachablePause(unreachable, unreachable ? unreachableReason(reach.error) : null);
  const counters = broadcastIds.map((id) =>
    db.run(sql`UPDATE ${broadcasts} SET
        sent = sent + ${countClaimed(token, json, 'sent', id)},
        failed = failed + ${countClaimed(token, json, 'failed', id)},
        skipped = skipped + ${countClaimed(token, json, 'skipped', id)},
        connect_failures = ${reach.kind === 'reached' ? sql`0` : unreachable ? sql`connect_failures + 1` : sql`connect_failures`},
        paused_reason = ${pause.pausedReason},
        status = ${pause.status},
        held_until = ${held ? sql`max(coalesce(held_until, ''), ${held})` : sql`CASE WHEN held_until > ${now} THEN held_until ELSE NULL END`},
        updated_at = ${now}
      WHERE id = ${id} AND org_id = ${orgId}`),
  );
  if (!last) {
    await rawBatch(db, [...counters, messageOutcomeStats(db, orgId, token, json), finishStatement(db, 'messages', token, json)]);
    return [];
  }
  const finishes = broadcastIds.map((id) => finishBroadcast(db, { id, orgId }, now));
  const reads = broadcastIds.map((id) =>
    db
      .select()
      .from(broadcasts)
      .where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId))),
  );
  const results = await rawBatch(db, [
    ...counters,
    messageOutcomeStats(db, orgId, token, json),
    finishStatement(db, 'messages', token, json),
    ...finishes,
    ...reads,
  ]);
  return results.slice(-reads.length).flatMap((r) => r.results.map(fromRaw));
}
