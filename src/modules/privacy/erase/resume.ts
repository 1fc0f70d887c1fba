import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { Env } from '../../../env';
import { runErasure, type KnownCounts } from './run-erasure';
import type { ErasureSubject } from './subject';

// Erasures whose request died after the D1 step (the isolate went, a ledger or R2 failed): the housekeeping cron runs
// their copies step again (run-erasure.ts), a few per run. An erasure younger than GRACE_MS may still be running in
// its request.

const GRACE_MS = 10 * 60_000;
const PER_RUN = 5;

export async function resumeErasures(db: Database, env: Env, now = Date.now()): Promise<number> {
  const before = new Date(now - GRACE_MS).toISOString();
  const rows = await db.all<{ id: number; subject: string; summary: string | null }>(
    sql`SELECT id, subject, summary FROM erasures WHERE state = 'running' AND subject IS NOT NULL AND created_at < ${before} ORDER BY id LIMIT ${PER_RUN}`,
  );
  for (const row of rows) {
    const known: KnownCounts = row.summary ? JSON.parse(row.summary) : { suppressions_removed: 0, activity_entries_cleared: 0 };
    await runErasure(db, env, row.id, JSON.parse(row.subject) as ErasureSubject, known);
  }
  return rows.length;
}
