import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { runnerOf } from './runner';
import type { Database } from '../../db/client';
import { broadcasts } from '../../db/schema';
import type { Env } from '../../env';

/** Broadcasts the watchdog pokes per run. */
const RESCUE_BATCH = 200;

/**
 * Watchdog (every minute, and the local platform at boot): pokes the runner of every broadcast that has a step to
 * take: sending, cancelled and not yet closed, queued and not started within a minute, scheduled and overdue. A
 * poke only sets an alarm where none is set (runner.ts), so a live runner and a paced broadcast are left as they
 * are, while one whose alarm was lost (a runtime restart forgets them) gets going. Answers how many it poked.
 */
export async function wakeStalledBroadcasts(db: Database, env: Pick<Env, 'BROADCAST'>, now = Date.now()): Promise<number> {
  const minuteAgo = new Date(now - 60_000).toISOString();
  const rows = await db
    .select({ id: broadcasts.id, orgId: broadcasts.orgId })
    .from(broadcasts)
    .where(
      or(
        eq(broadcasts.status, 'sending'),
        and(eq(broadcasts.status, 'queued'), lt(broadcasts.updatedAt, minuteAgo)),
        and(eq(broadcasts.status, 'waiting'), lt(broadcasts.delayedAt, minuteAgo)),
        and(eq(broadcasts.status, 'cancelled'), isNull(broadcasts.finishedAt)),
      ),
    )
    .orderBy(sql`${broadcasts.updatedAt}`)
    .limit(RESCUE_BATCH);
  const poked = await Promise.all(rows.map((b) => runnerOf(env, b.id).poke({ orgId: b.orgId, broadcastId: b.id })));
  return poked.filter(Boolean).length;
}
