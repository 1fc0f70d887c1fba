import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rawBatch, type BatchStatement } from '../crud/raw-batch';
import { ENGAGEMENT_COUNTERS } from '../broadcast/engagement-counters';

// A started broadcast's status and counters are written by its organisation's ledger (the one writer, in the same
// transaction as the message rows they count); D1's broadcasts row shows them as a projection, which the ledger
// writes after the fact (org-ledger.ts: at once on a status change, otherwise at most about once a second), each
// with the ledger's revision of the row, so a projection that arrives late never overwrites a newer one. The other
// columns (name, note, content, schedule) stay D1's.

/** The columns the ledger owns once a broadcast started (snake_case, as stored in both). */
export const LEDGER_OWNED_COLUMNS = [
  'status',
  'cursor',
  'enumerated',
  'total',
  'sent',
  'failed',
  'skipped',
  ...ENGAGEMENT_COUNTERS,
  'unsubscribes',
  'bounces',
  'complaints',
  'undelivered',
  'paused_reason',
  'connect_failures',
  'held_until',
  'finished_at',
  'updated_at',
] as const;

/** The same columns as drizzle's keys of the broadcasts table (camelCase). */
export const LEDGER_OWNED_KEYS: readonly string[] = LEDGER_OWNED_COLUMNS.map((c) => c.replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase()));

export type ProjectedRow = Record<(typeof LEDGER_OWNED_COLUMNS)[number], unknown> & { id: number; org_id: number; rev: number };

/** The D1 statement that shows a ledger row in D1, unless D1 already shows this revision or a newer one. */
export function projectStatement(d1: Database, row: ProjectedRow): BatchStatement {
  return d1.run(
    sql`UPDATE broadcasts SET ${sql.join(
      LEDGER_OWNED_COLUMNS.map((c) => sql`${sql.raw(c)} = ${row[c] ?? null}`),
      sql`, `,
    )}, rev = ${row.rev} WHERE id = ${row.id} AND org_id = ${row.org_id} AND rev < ${row.rev}`,
  );
}

/** Least time between two projections of a ledger (a status change does not wait). */
export const PROJECTION_EVERY_MS = 1_000;
/** Least time between a projection and the next one that shows a status change. */
export const PROJECTION_SOON_MS = 100;
/** When a projection failed (D1 unreachable), the next try. */
export const PROJECTION_RETRY_MS = 5_000;

/** When the next projection is due (epoch ms), or null when D1 shows everything; `lastAt`: when the last one ran. */
export function projectionDue(storage: SqlStorage, lastAt: number): number | null {
  const row = storage
    .exec<{ n: number; moved: number }>(
      'SELECT count(*) AS n, coalesce(max(status IS NOT projected_status), 0) AS moved FROM broadcasts WHERE rev > projected_rev',
    )
    .one();
  if (Number(row.n) === 0) return null;
  // A status change goes at once, unless a projection ran a moment ago (then in a tenth of a second: an alarm set to
  // now from inside the alarm handler may be dropped, workerd#6866).
  return Math.max(Date.now(), lastAt + (Number(row.moved) === 1 ? PROJECTION_SOON_MS : PROJECTION_EVERY_MS));
}

/** Writes every broadcast D1 does not show as it is now, then records what it showed. */
export async function projectBroadcasts(storage: DurableObjectStorage, d1: Database): Promise<number> {
  const rows = storage.sql.exec('SELECT * FROM broadcasts WHERE rev > projected_rev').toArray() as unknown as ProjectedRow[];
  if (rows.length === 0) return 0;
  await rawBatch(
    d1,
    rows.map((row) => projectStatement(d1, row)),
  );
  const now = Date.now();
  for (const row of rows) {
    storage.sql.exec(
      'UPDATE broadcasts SET projected_rev = ?, projected_status = ?, projected_at = ? WHERE id = ? AND projected_rev < ?',
      row.rev,
      row.status as string,
      now,
      row.id,
      row.rev,
    );
  }
  return rows.length;
}
