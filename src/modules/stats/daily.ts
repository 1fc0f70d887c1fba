import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { BatchStatement } from '../crud/raw-batch';

// How usage is added to org_daily_stats: each writer puts one of these statements into the D1 batch that makes the
// change it counts (a message's outcome, a hit, an unsubscribe, a contact), so a figure never moves without its
// cause, and a retried batch that changes nothing adds nothing. (The import writer, on raw D1 statements, has its
// own upsert of contacts_created: src/modules/import/batch-writer.ts.)

export const DAILY_COUNTERS = [
  'requests',
  'request_bytes',
  'emails_sent',
  'sms_sent',
  'messages_failed',
  'opens',
  'human_opens',
  'clicks',
  'human_clicks',
  'opened',
  'human_opened',
  'clicked',
  'human_clicked',
  'unsubscribes',
  'bounces',
  'complaints',
  'contacts_created',
  'contacts_deleted',
] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];
export type DailyCounts = Partial<Record<DailyCounter, number>>;

/** The UTC day of a moment, as stored: YYYY-MM-DD. */
export const dayOf = (at: number | string | Date = Date.now()) => new Date(at).toISOString().slice(0, 10);

const column = (name: DailyCounter) => sql.raw(name);

/** Adds `counts` to the organisation's day; null when there is nothing to add. */
export function addDaily(db: Database, orgId: number, counts: DailyCounts, day = dayOf()): BatchStatement | null {
  const entries = DAILY_COUNTERS.map((name) => [name, Math.trunc(counts[name] ?? 0)] as const).filter(([, n]) => n !== 0);
  if (entries.length === 0) return null;
  // Only while the organisation exists: sums flushed after its deletion are dropped, not retried forever.
  return db.run(sql`INSERT INTO org_daily_stats (org_id, day, ${sql.join(
    entries.map(([name]) => column(name)),
    sql`, `,
  )})
    SELECT ${orgId}, ${day}, ${sql.join(
      entries.map(([, n]) => sql`${n}`),
      sql`, `,
    )} WHERE EXISTS (SELECT 1 FROM organizations WHERE id = ${orgId})
    ON CONFLICT (org_id, day) DO UPDATE SET ${sql.join(
      entries.map(([name]) => sql`${column(name)} = ${column(name)} + excluded.${column(name)}`),
      sql`, `,
    )}`);
}

/**
 * Counts the messages a delivery is about to record as sent (by type) or failed: the rows it still holds
 * (claim = token, status sending). Run it in the same batch as finishStatement, before it: a finish run twice
 * holds no rows the second time and counts nothing.
 */
export function messageOutcomeStats(db: Database, orgId: number, token: string, outcomesJson: string, day = dayOf()): BatchStatement {
  return db.run(sql`INSERT INTO org_daily_stats (org_id, day, emails_sent, sms_sent, messages_failed)
    SELECT ${orgId}, ${day}, coalesce(sum(m.type = 'email' AND o.s = 'sent'), 0), coalesce(sum(m.type = 'sms' AND o.s = 'sent'), 0), coalesce(sum(o.s = 'failed'), 0)
    FROM (SELECT value ->> 'i' AS i, value ->> 's' AS s FROM json_each(${outcomesJson})) o CROSS JOIN messages m ON m.id = o.i
    WHERE m.org_id = ${orgId} AND m.claim = ${token} AND m.status = 'sending'
    ON CONFLICT (org_id, day) DO UPDATE SET emails_sent = emails_sent + excluded.emails_sent, sms_sent = sms_sent + excluded.sms_sent,
      messages_failed = messages_failed + excluded.messages_failed`);
}

/** Adds 1 to `counter` when the statement just before it in the batch changed a row (an insert that was not a repeat). */
export function countIfChanged(db: Database, orgId: number, counter: DailyCounter, day = dayOf()): BatchStatement {
  return db.run(sql`INSERT INTO org_daily_stats (org_id, day, ${column(counter)}) SELECT ${orgId}, ${day}, 1 WHERE changes() > 0
    ON CONFLICT (org_id, day) DO UPDATE SET ${column(counter)} = ${column(counter)} + 1`);
}

/**
 * Writes the organisation's volumes as they stand (org_usage) into its day: the dashboard's data and file volume
 * charts read the last gauge of each day. Data volume stays unset until the cron first measured it.
 */
export function usageGauges(db: Database, orgId: number, day = dayOf()): BatchStatement {
  return db.run(sql`INSERT INTO org_daily_stats (org_id, day, file_bytes, data_bytes)
    SELECT org_id, ${day}, file_bytes, CASE WHEN data_measured_at IS NULL THEN NULL ELSE data_bytes END FROM org_usage WHERE org_id = ${orgId}
    ON CONFLICT (org_id, day) DO UPDATE SET file_bytes = excluded.file_bytes, data_bytes = coalesce(excluded.data_bytes, data_bytes)`);
}
