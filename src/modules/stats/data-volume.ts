import { is, sql } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import * as schema from '../../db/schema';
import { organizations } from '../../db/schema';
import { rawBatch, type BatchStatement } from '../crud/raw-batch';
import { usageGauges } from './daily';

// Data volume: each organisation's share of the one D1 database, measured by the cron at most once an hour, so a
// dashboard view reads one row and never scans. For every table with org_id: its rows per organisation (one
// GROUP BY on an index leading with org_id) times the table's mean row size (its newest SAMPLE_ROWS rows, as
// text); the database's real size (D1's size_after) is then split in proportion, so indexes, free pages and the
// platform's own tables are shared out and the shares add up to what the database holds.

export const MEASURE_EVERY_MS = 3_600_000;
const SAMPLE_ROWS = 200;
const ORGS_PER_BATCH = 40;

/** Tables with an org_id column, by SQL name. */
const tenantTables = (Object.values(schema) as unknown[])
  .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  .map((table) => getTableConfig(table))
  .filter((config) => config.columns.some((column) => column.name === 'org_id'))
  .map((config) => config.name);

/** Mean bytes of a table's rows, from its newest rows' values as text. */
async function meanRowBytes(db: Database, table: string): Promise<number> {
  const rows = await db.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.identifier(table)} ORDER BY rowid DESC LIMIT ${SAMPLE_ROWS}`);
  if (rows.length === 0) return 0;
  let bytes = 0;
  for (const row of rows) for (const value of Object.values(row)) bytes += value === null ? 1 : typeof value === 'string' ? value.length : 8;
  return bytes / rows.length;
}

/** Each organisation's estimated bytes (rows x mean row size, over every tenant table). */
async function weightsByOrg(db: Database): Promise<Map<number, number>> {
  const weights = new Map<number, number>();
  for (const table of tenantTables) {
    const mean = await meanRowBytes(db, table);
    if (mean === 0) continue;
    const counts = await db.all<{ org_id: number; n: number }>(sql`SELECT org_id, count(*) AS n FROM ${sql.identifier(table)} GROUP BY org_id`);
    for (const { org_id, n } of counts) weights.set(org_id, (weights.get(org_id) ?? 0) + n * mean);
  }
  return weights;
}

/** The database's size in bytes as D1 reports it (size_after), or null where the runtime does not say. */
async function databaseBytes(db: Database): Promise<number | null> {
  const result = await db.$client.prepare('SELECT 1').run();
  const size = (result.meta as { size_after?: number }).size_after;
  return typeof size === 'number' && size > 0 ? size : null;
}

/** Measures every organisation's data volume now and writes it (org_usage and today's gauge). */
export async function measureDataVolume(db: Database, now = new Date()): Promise<Map<number, number>> {
  const [orgs, weights, size] = await Promise.all([db.select({ id: organizations.id }).from(organizations), weightsByOrg(db), databaseBytes(db)]);
  const totalWeight = [...weights.values()].reduce((a, b) => a + b, 0);
  const scale = size !== null && totalWeight > 0 ? size / totalWeight : 1;
  const measuredAt = now.toISOString();
  const volumes = new Map(orgs.map((o) => [o.id, Math.round((weights.get(o.id) ?? 0) * scale)]));
  const entries = [...volumes];
  for (let i = 0; i < entries.length; i += ORGS_PER_BATCH) {
    const statements: BatchStatement[] = entries.slice(i, i + ORGS_PER_BATCH).flatMap(([orgId, bytes]) => [
      // Only while the organisation exists: one deleted since the list was read (a demo reset) is skipped.
      db.run(sql`INSERT INTO org_usage (org_id, data_bytes, data_measured_at)
        SELECT ${orgId}, ${bytes}, ${measuredAt} WHERE EXISTS (SELECT 1 FROM organizations WHERE id = ${orgId})
        ON CONFLICT (org_id) DO UPDATE SET data_bytes = excluded.data_bytes, data_measured_at = excluded.data_measured_at`),
      usageGauges(db, orgId),
    ]);
    await rawBatch(db, statements);
  }
  return volumes;
}

/**
 * Measures when the last measurement is an hour old or there is none (the cron's call), or when `orgId` (a
 * dashboard view) has never been measured: an organisation created since the last hour.
 */
export async function measureDataVolumeIfDue(db: Database, now = new Date(), orgId?: number): Promise<boolean> {
  const last = await db.get<{ at: string | null; mine: string | null }>(
    sql`SELECT max(data_measured_at) AS at, (SELECT data_measured_at FROM org_usage WHERE org_id = ${orgId ?? 0}) AS mine FROM org_usage`,
  );
  const recent = last?.at && now.getTime() - Date.parse(last.at) < MEASURE_EVERY_MS;
  if (recent && (orgId === undefined || last?.mine)) return false;
  await measureDataVolume(db, now);
  return true;
}
