import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, messages } from '../../db/schema';
import { ACTION_FROM, type BroadcastAction } from '../../shared/contracts/broadcast';
import { rawBatch } from '../crud/raw-batch';
import { fromRaw } from './outcomes';
import type { BroadcastRow } from './run-store';

// The user's actions on a broadcast. Each is one conditional write on the status it needs: two clicks, two
// tabs or a retried request find the status already moved and change nothing (the route answers 409).

const retryable = (orgId: number, id: number) =>
  and(eq(messages.orgId, orgId), eq(messages.broadcastId, id), eq(messages.status, 'failed'), eq(messages.retryable, true));

/** Applies the action if the broadcast is in a status that allows it; the row after it, or undefined. */
export async function applyAction(db: Database, orgId: number, id: number, action: BroadcastAction): Promise<BroadcastRow | undefined> {
  const now = new Date().toISOString();
  const mine = and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId), inArray(broadcasts.status, [...ACTION_FROM[action]]));
  switch (action) {
    case 'pause':
      return first(db.update(broadcasts).set({ status: 'paused', pausedReason: null, updatedAt: now }).where(mine).returning());
    case 'resume':
      // Paused before it could start (its template or sender was gone): it starts again from the beginning.
      return first(
        db
          .update(broadcasts)
          .set({ status: sql`CASE WHEN ${broadcasts.startedAt} IS NULL THEN 'queued' ELSE 'sending' END` as unknown as string, pausedReason: null, connectFailures: 0, updatedAt: now })
          .where(mine)
          .returning(),
      );
    case 'cancel':
      return first(db.update(broadcasts).set({ status: 'cancelled', heldUntil: null, updatedAt: now }).where(mine).returning());
    case 'retry-failed':
      return retryFailed(db, orgId, id, now);
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
      .where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId), eq(broadcasts.status, 'finished'), sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${retryable(orgId, id)})`))
      .returning(),
    db
      .update(messages)
      .set({ status: 'queued', attempts: 0, error: null, retryable: null, updatedAt: now })
      .where(and(retryable(orgId, id), sql`EXISTS (SELECT 1 FROM ${broadcasts} WHERE ${broadcasts.id} = ${id} AND ${broadcasts.status} = 'sending' AND ${broadcasts.updatedAt} = ${now})`)),
  ]);
  const row = moved.results[0];
  return row ? fromRaw(row) : undefined;
}

async function first<T>(rows: Promise<T[]>): Promise<T | undefined> {
  return (await rows)[0];
}
