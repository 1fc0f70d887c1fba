import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, contacts, messages } from '../../db/schema';
import { ACTION_FROM, type BroadcastAction } from '../../shared/contracts/broadcast';
import { rawBatch } from '../crud/raw-batch';
import { requeueStatement } from '../sending/claim';
import { newestGeneration } from '../ledger/registry';
import { recipientConditions } from './recipients';
import { fromRaw, ledgerRun, loadBroadcast, ruleOf, withLedgerState, type BroadcastRow, type LedgerOf } from './run-store';
import type { BroadcastSnapshot } from './snapshot';

// Every change of a broadcast's status, and only here. The life of a broadcast:
//
//   waiting (scheduled) --due--> queued --start--> sending --all accounted for--> finished
//   waiting | queued --template or sender gone--> paused (with the reason)
//   queued | sending <--pause / resume--> paused   (the engine pauses too: the SMTP server unreachable 3 batches in a row)
//   waiting | queued | sending | paused --cancel--> cancelled --what never went out is skipped--> cancelled, finished_at set
//   finished --retry failed--> sending (only recipients whose message failed with a retryable error)
//
// Each step is one conditional write on the status it expects: two clicks, two tabs, a retried request or an alarm
// run twice find the status already moved and change nothing. Who takes which step: the user's actions (routes.ts,
// applyAction), the runner's alarm (runner.ts: start, finish, close a cancel), the consumer's outcome write
// (outcomes.ts: the unreachable pause and the finish, in the same transaction as the counters). Where: the steps
// before the start write D1's row; `markStarted` is the last of them, and from then on the organisation's ledger
// holds the status with the counters and the messages (src/modules/ledger), so every later step writes there and
// the ledger projects it into D1. The functions take the store they write (`db`), the runner and routes pick it.

const nowIso = () => new Date().toISOString();

/** waiting|queued -> sending with the frozen content and the recipients fixed (contacts up to the newest id now). */
export async function markStarted(db: Database, b: BroadcastRow, snapshot: BroadcastSnapshot): Promise<BroadcastRow | undefined> {
  const now = nowIso();
  const [row] = await db
    .update(broadcasts)
    .set({
      status: 'sending',
      snapshot,
      startedAt: now,
      lastContactId: sql`(SELECT coalesce(max(${contacts.id}), 0) FROM ${contacts} WHERE ${contacts.orgId} = ${b.orgId})` as unknown as number,
      // The same contacts the pages will walk, counted now: the console shows the whole total from the first second.
      plannedTotal: sql`(SELECT count(*) FROM ${contacts} WHERE ${recipientConditions(ruleOf(b))}
        AND ${contacts.id} <= (SELECT coalesce(max(${contacts.id}), 0) FROM ${contacts} WHERE ${contacts.orgId} = ${b.orgId}))` as unknown as number,
      // It lives in the newest of the organisation's ledgers from now on, even after the next opens.
      ledgerGeneration: newestGeneration(b.orgId) as unknown as number,
      updatedAt: now,
    })
    .where(and(eq(broadcasts.id, b.id), eq(broadcasts.orgId, b.orgId), sql`${broadcasts.status} IN ('waiting', 'queued')`))
    .returning();
  return row;
}

/** A broadcast that cannot start (its template or sender is gone) is paused with the reason. */
export async function markUnstartable(db: Database, b: BroadcastRow, reason: string): Promise<void> {
  await db
    .update(broadcasts)
    .set({ status: 'paused', pausedReason: reason, updatedAt: nowIso() })
    .where(and(eq(broadcasts.id, b.id), eq(broadcasts.orgId, b.orgId), sql`${broadcasts.status} IN ('waiting', 'queued')`));
}

/** sending -> finished once every recipient is known and accounted for; returns the row when this call finished it. */
export async function finishIfDone(db: Database, b: Pick<BroadcastRow, 'id' | 'orgId'>): Promise<BroadcastRow | undefined> {
  const now = nowIso();
  const [row] = await db
    .update(broadcasts)
    .set({ status: 'finished', finishedAt: now, heldUntil: null, updatedAt: now })
    .where(finishableCondition(b))
    .returning();
  return row;
}

/** The condition under which a sending broadcast is done. */
export function finishableCondition(b: Pick<BroadcastRow, 'id' | 'orgId'>) {
  return and(
    eq(broadcasts.id, b.id),
    eq(broadcasts.orgId, b.orgId),
    eq(broadcasts.status, 'sending'),
    eq(broadcasts.enumerated, true),
    sql`${broadcasts.sent} + ${broadcasts.failed} + ${broadcasts.skipped} >= ${broadcasts.total}`,
  )!;
}

/** Marks the broadcast finished when cancelled and nothing is left in flight (the drain is complete). */
export async function closeCancelled(db: Database, b: BroadcastRow): Promise<void> {
  const now = nowIso();
  await db
    .update(broadcasts)
    .set({ finishedAt: now, heldUntil: null, updatedAt: now })
    .where(and(eq(broadcasts.id, b.id), eq(broadcasts.orgId, b.orgId), eq(broadcasts.status, 'cancelled'), sql`${broadcasts.finishedAt} IS NULL`));
}

/** The consumer's part, inside its counters UPDATE: sending -> paused after the last of the unreachable batches. */
export function unreachablePause(unreachable: boolean, reason: string | null): { status: SQL; pausedReason: SQL } {
  const pausing = sql`${unreachable ? 1 : 0} = 1 AND connect_failures + 1 >= ${PAUSE_AFTER_UNREACHABLE} AND status = 'sending'`;
  return {
    status: sql`CASE WHEN ${pausing} THEN 'paused' ELSE status END`,
    pausedReason: sql`CASE WHEN ${pausing} THEN ${reason} ELSE paused_reason END`,
  };
}

/** Batches in a row that could not reach the server before the broadcast pauses itself. */
export const PAUSE_AFTER_UNREACHABLE = 3;

/** The consumer's finish check, a statement of its outcome write: sending -> finished when all are accounted for. */
export function finishStatement(db: Database, b: Pick<BroadcastRow, 'id' | 'orgId'>, now: string) {
  return db.update(broadcasts).set({ status: 'finished', finishedAt: now, heldUntil: null, updatedAt: now }).where(finishableCondition(b));
}

// The user's actions.

const retryable = (orgId: number, id: number) =>
  and(eq(messages.orgId, orgId), eq(messages.broadcastId, id), eq(messages.status, 'failed'), eq(messages.retryable, true));

/**
 * Applies the action if the broadcast is in a status that allows it; the row after it (D1's, with the ledger's
 * status and counters once started), or undefined. Before it starts a broadcast's status is D1's; from the start on
 * its ledger's (the one writer of status and counters, with the messages): an action on one that is starting at
 * this moment finds D1's row started and goes to the ledger.
 */
export async function applyAction(db: Database, ledgerOf: LedgerOf, orgId: number, id: number, action: BroadcastAction): Promise<BroadcastRow | undefined> {
  const now = new Date().toISOString();
  for (let tries = 0; tries < 2; tries++) {
    const row = await loadBroadcast(db, orgId, id);
    if (!row) return undefined;
    if (row.startedAt) {
      const ledger = await ledgerOf(row);
      if (!ledger || !(await ledgerRun(ledger, row))) return undefined;
      const after = await applyTo(ledger, orgId, id, action, now);
      return after ? withLedgerState(row, after) : undefined;
    }
    const after = await applyTo(db, orgId, id, action, now, sql`${broadcasts.startedAt} IS NULL`);
    if (after) return after;
    if (!(await loadBroadcast(db, orgId, id))?.startedAt) return undefined;
  }
  return undefined;
}

/** The action as one conditional write in `db` (D1 before the start, the ledger after). */
async function applyTo(db: Database, orgId: number, id: number, action: BroadcastAction, now: string, also?: SQL): Promise<BroadcastRow | undefined> {
  const mine = and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId), inArray(broadcasts.status, [...ACTION_FROM[action]]), also);
  switch (action) {
    case 'pause':
      return first(db.update(broadcasts).set({ status: 'paused', pausedReason: null, updatedAt: now }).where(mine).returning());
    case 'resume':
      // Paused before it could start (its template or sender was gone): it starts again from the beginning.
      return first(
        db
          .update(broadcasts)
          .set({
            status: sql`CASE WHEN ${broadcasts.startedAt} IS NULL THEN 'queued' ELSE 'sending' END` as unknown as string,
            pausedReason: null,
            connectFailures: 0,
            updatedAt: now,
          })
          .where(mine)
          .returning(),
      );
    case 'cancel':
      return first(db.update(broadcasts).set({ status: 'cancelled', heldUntil: null, updatedAt: now }).where(mine).returning());
    case 'retry-failed':
      // Only a finished broadcast, which started: its messages are in the ledger with it.
      return also ? undefined : retryFailed(db, orgId, id, now);
  }
}

/**
 * finished -> sending, with the messages that failed with a retryable error queued again and taken off the
 * failed count, in one transaction. Only the statement that moved the status (it stamps `updated_at` with
 * this call's time) lets the messages move.
 */
async function retryFailed(db: Database, orgId: number, id: number, now: string): Promise<BroadcastRow | undefined> {
  const [moved] = await rawBatch(db, [
    db
      .update(broadcasts)
      .set({
        status: 'sending',
        finishedAt: null,
        failed: sql`${broadcasts.failed} - (SELECT count(*) FROM ${messages} WHERE ${retryable(orgId, id)})` as unknown as number,
        updatedAt: now,
      })
      .where(
        and(
          eq(broadcasts.id, id),
          eq(broadcasts.orgId, orgId),
          eq(broadcasts.status, 'finished'),
          sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${retryable(orgId, id)})`,
        ),
      )
      .returning(),
    requeueStatement(
      db,
      and(
        retryable(orgId, id),
        sql`EXISTS (SELECT 1 FROM ${broadcasts} WHERE ${broadcasts.id} = ${id} AND ${broadcasts.status} = 'sending' AND ${broadcasts.updatedAt} = ${now})`,
      )!,
      now,
    ),
  ]);
  const row = moved.results[0];
  return row ? fromRaw(row) : undefined;
}

async function first<T>(rows: Promise<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}
