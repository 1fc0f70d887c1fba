import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { repairListCounts } from '../stats/list-counts';
import { registeredLedgerDb } from './registry';

// The daily repair of the ledgers' kept list totals (the message list's and each broadcast's, kept by the ledger's
// triggers, ledger-schema.ts), as D1's repair does for D1's (stats/list-counts.ts). Each ledger is recounted about
// once a day, a batch per housekeeping run (96 a day), the longest unrecounted first, so the scans spread over the day
// instead of every ledger at one hour; a drift is logged as an error with what it was.

const RECOUNT_EVERY = '-1 day';
const RECOUNT_BATCH = 100;

/** Recounts the ledgers not recounted in the last day (up to `batch`); answers how many it recounted. */
export async function recountLedgers(env: Pick<Env, 'LEDGER'>, db: Database, batch = RECOUNT_BATCH): Promise<number> {
  const due = await db.all<{ name: string; org_id: number }>(sql`
    SELECT name, org_id FROM ledgers
    WHERE ready = 1 AND (counted_at IS NULL OR counted_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${RECOUNT_EVERY}))
    ORDER BY counted_at IS NOT NULL, counted_at LIMIT ${batch}`);
  let recounted = 0;
  for (const { name, org_id } of due) {
    const ledger = registeredLedgerDb(env, name, Number(org_id));
    if (!ledger) continue;
    try {
      const drift = await repairListCounts(ledger, 'ledger');
      if (drift.length) console.error(JSON.stringify({ level: 'error', job: 'recountLedgers', ledger: name, drifted: drift.slice(0, 50) }));
      await db.run(sql`UPDATE ledgers SET counted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ${name}`);
      recounted++;
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', job: 'recountLedgers', ledger: name, error: String(error) }));
    }
  }
  return recounted;
}
