import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { runnerOf } from './runner';
import type { Database } from '../../db/client';
import { broadcasts } from '../../db/schema';
import type { Env } from '../../env';

/** Broadcasts the cron wakes per run. */
const RESCUE_BATCH = 50;

/**
 * Cron: wakes the runner of broadcasts that look forgotten: queued but not started, scheduled and overdue,
 * sending or cancelled without a change for a while. A runner that is alive just takes its next step, so a
 * wake too many costs nothing; one whose wake after create was lost gets going.
 */
export async function wakeStalledBroadcasts(db: Database, env: Pick<Env, 'BROADCAST'>, now = Date.now()): Promise<number> {
  const minuteAgo = new Date(now - 60_000).toISOString();
  const quiet = new Date(now - 5 * 60_000).toISOString();
  const rows = await db
    .select({ id: broadcasts.id, orgId: broadcasts.orgId })
    .from(broadcasts)
    .where(
      or(
        and(eq(broadcasts.status, 'queued'), lt(broadcasts.updatedAt, minuteAgo)),
        and(eq(broadcasts.status, 'waiting'), lt(broadcasts.delayedAt, minuteAgo)),
        and(eq(broadcasts.status, 'sending'), lt(broadcasts.updatedAt, quiet)),
        and(eq(broadcasts.status, 'cancelled'), isNull(broadcasts.finishedAt), lt(broadcasts.updatedAt, minuteAgo)),
      ),
    )
    .orderBy(sql`${broadcasts.updatedAt}`)
    .limit(RESCUE_BATCH);
  await Promise.all(rows.map((b) => runnerOf(env, b.id).wake({ orgId: b.orgId, broadcastId: b.id })));
  return rows.length;
}
