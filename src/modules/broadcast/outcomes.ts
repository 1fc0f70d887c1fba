import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts } from '../../db/schema';
import { rawBatch } from '../crud/raw-batch';
import { countClaimed, finishStatement } from '../sending/claim';
import { messageOutcomeStats } from '../stats/daily';
import { finishableCondition, type BroadcastRow } from './run-store';

// The consumer's one write for a batch of broadcast messages, as one D1 transaction: the counters (counted
// from the rows this delivery still holds, before they change), the rows' outcomes, the finish check, and the
// broadcast as it now stands (for the live progress).

/** How the SMTP server answered this batch: reached, not reachable at all, or neither can be said. */
export type Reachability = { kind: 'reached' } | { kind: 'unreachable'; error: string } | { kind: 'unknown' };

/** Batches in a row that could not reach the server before the broadcast pauses itself. */
export const PAUSE_AFTER_UNREACHABLE = 3;

/** The reason shown when the engine paused a broadcast because its server could not be reached. */
export const unreachableReason = (error: string) =>
  `Paused: the server could not be reached for ${PAUSE_AFTER_UNREACHABLE} batches in a row (${error.slice(0, 300)}). Fix the integration, then resume.`;

/** Writes a batch's outcomes and moves the counters of its broadcasts; answers the broadcasts after the write. */
export async function recordBroadcastOutcomes(
  db: Database,
  orgId: number,
  broadcastIds: number[],
  token: string,
  json: string,
  reach: Reachability,
  heldUntil: number | null,
): Promise<BroadcastRow[]> {
  const now = new Date().toISOString();
  const unreachable = reach.kind === 'unreachable';
  // A hold this batch met extends the broadcast's; otherwise an earlier batch's hold stands until it runs out.
  const held = heldUntil ? new Date(heldUntil).toISOString() : null;
  const pausing = sql`${unreachable ? 1 : 0} = 1 AND connect_failures + 1 >= ${PAUSE_AFTER_UNREACHABLE} AND status = 'sending'`;
  const counters = broadcastIds.map((id) =>
    db.run(sql`UPDATE ${broadcasts} SET
        sent = sent + ${countClaimed(token, json, 'sent', id)},
        failed = failed + ${countClaimed(token, json, 'failed', id)},
        skipped = skipped + ${countClaimed(token, json, 'skipped', id)},
        connect_failures = ${reach.kind === 'reached' ? sql`0` : unreachable ? sql`connect_failures + 1` : sql`connect_failures`},
        paused_reason = CASE WHEN ${pausing} THEN ${unreachable ? unreachableReason(reach.error) : null} ELSE paused_reason END,
        status = CASE WHEN ${pausing} THEN 'paused' ELSE status END,
        held_until = ${held ? sql`max(coalesce(held_until, ''), ${held})` : sql`CASE WHEN held_until > ${now} THEN held_until ELSE NULL END`},
        updated_at = ${now}
      WHERE id = ${id} AND org_id = ${orgId}`),
  );
  const finishes = broadcastIds.map((id) =>
    db.update(broadcasts).set({ status: 'finished', finishedAt: now, heldUntil: null, updatedAt: now }).where(finishableCondition({ id, orgId })),
  );
  const reads = broadcastIds.map((id) => db.select().from(broadcasts).where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId))));
  const results = await rawBatch(db, [...counters, messageOutcomeStats(db, orgId, token, json), finishStatement(db, 'messages', token, json), ...finishes, ...reads]);
  return results.slice(-reads.length).flatMap((r) => r.results.map(fromRaw));
}

/** A broadcasts row as D1 returns it (snake_case, 0/1 booleans, JSON as text) in drizzle's shape. */
export function fromRaw(raw: Record<string, unknown>): BroadcastRow {
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
  return {
    id: Number(raw.id),
    orgId: Number(raw.org_id),
    name: String(raw.name),
    alias: (raw.alias as string | null) ?? null,
    note: (raw.note as string | null) ?? null,
    type: String(raw.type),
    status: String(raw.status),
    senderId: (raw.sender_id as number | null) ?? null,
    templateId: (raw.template_id as number | null) ?? null,
    subscriptionId: (raw.subscription_id as number | null) ?? null,
    doNotUnsubscribe: !!raw.do_not_unsubscribe,
    skipUnsubscribed: !!raw.skip_unsubscribed,
    trackOpens: !!raw.track_opens,
    trackClicks: !!raw.track_clicks,
    sleep: Number(raw.sleep),
    delayedAt: (raw.delayed_at as string | null) ?? null,
    startedAt: (raw.started_at as string | null) ?? null,
    finishedAt: (raw.finished_at as string | null) ?? null,
    contacts: json(raw.contacts),
    snapshot: json(raw.snapshot) ?? null,
    lastContactId: (raw.last_contact_id as number | null) ?? null,
    cursor: Number(raw.cursor),
    enumerated: !!raw.enumerated,
    total: Number(raw.total),
    sent: Number(raw.sent),
    failed: Number(raw.failed),
    skipped: Number(raw.skipped),
    opens: Number(raw.opens),
    opensUnique: Number(raw.opens_unique),
    humanOpens: Number(raw.human_opens),
    humanOpensUnique: Number(raw.human_opens_unique),
    clicks: Number(raw.clicks),
    clicksUnique: Number(raw.clicks_unique),
    humanClicks: Number(raw.human_clicks),
    humanClicksUnique: Number(raw.human_clicks_unique),
    unsubscribes: Number(raw.unsubscribes),
    pausedReason: (raw.paused_reason as string | null) ?? null,
    connectFailures: Number(raw.connect_failures),
    heldUntil: (raw.held_until as string | null) ?? null,
    createdAt: String(raw.created_at),
    updatedAt: String(raw.updated_at),
  };
}
