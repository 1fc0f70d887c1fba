import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { LEDGER_NOT_INITIALISED, LedgerRefused } from './owner';
import { ledgerStub, ownerOfName } from './registry';

// The drainer: a deleted organisation's ledgers are emptied here. A D1 trigger (migration 0013) writes a
// `ledger_deletions` row whenever a registry row goes, the organisation's cascade included, so every way an
// organisation is removed (account deletion, the demo reset) is covered; the account deletion starts a drain at
// once and the housekeeping cron finishes what one left.

const DRAIN_BATCH = 50;

/** Empties up to DRAIN_BATCH ledgers waiting to be emptied, oldest first; answers how many it emptied. */
export async function drainLedgerDeletions(env: Env, db: Database): Promise<number> {
  const waiting = await db.all<{ name: string; org_id: number }>(
    sql`SELECT name, org_id FROM ledger_deletions ORDER BY requested_at, name LIMIT ${DRAIN_BATCH}`,
  );
  let emptied = 0;
  for (const { name, org_id } of waiting) {
    const owner = ownerOfName(name, Number(org_id));
    try {
      const answer = owner ? await ledgerStub(env, name).destroy(owner) : null;
      // Refused as never made (emptied by a drain that died before deleting its row): done. Another owner: left alone.
      if (answer && !answer.ok && answer.refused !== LEDGER_NOT_INITIALISED) throw new LedgerRefused(answer.refused);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', job: 'drainLedgerDeletions', ledger: name, error: String(error) }));
      continue;
    }
    await db.run(sql`DELETE FROM ledger_deletions WHERE name = ${name}`);
    emptied++;
  }
  return emptied;
}
