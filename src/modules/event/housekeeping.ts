import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { EVENT_KEEP_MS } from '../../shared/contracts/webhook';
import { served } from '../ledger/owner';
import { ledgerStub, ownerOfName } from '../ledger/registry';
import { announceEvents } from './announce';
import { PRUNE_CHUNK } from './stream';

// The stream's share of the housekeeping cron (src/scheduled.ts): the backstop of lost announcements, outbox rows
// of organisations that are gone, and the events past EVENT_KEEP_MS (30 days), each bounded per run.

/** An outbox row older than this was missed by its announcement: the cron absorbs it. */
export const ABSORB_OVERDUE = '-1 minute';
/** Organisations absorbed per run. */
const ABSORB_BATCH = 100;

/**
 * Absorbs for the organisations whose outbox has rows older than a minute (up to ABSORB_BATCH), and deletes the
 * rows of organisations that no longer exist; answers how many organisations it absorbed for.
 */
export async function absorbOverdueEvents(env: Env, db: Database): Promise<number> {
  await db.run(sql`DELETE FROM event_outbox WHERE org_id NOT IN (SELECT id FROM organizations)`);
  const due = await db.all<{ org_id: number }>(sql`
    SELECT DISTINCT org_id FROM event_outbox WHERE at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${ABSORB_OVERDUE}) LIMIT ${ABSORB_BATCH}`);
  for (const { org_id } of due) await announceEvents(env, Number(org_id));
  return due.length;
}

/** The ledgers are pruned in this many turns: each run takes one (by the registry row's rowid), each ledger every two hours. */
const PRUNE_TURNS = 8;
/** Chunks (PRUNE_CHUNK events each) one ledger deletes at most per visit. */
const PRUNE_CHUNKS = 10;
const HOUSEKEEPING_MS = 15 * 60 * 1000;

/** Deletes the events past EVENT_KEEP_MS in this run's turn of ledgers; answers how many events went. */
export async function pruneOldEvents(env: Pick<Env, 'LEDGER'>, db: Database, now = Date.now()): Promise<number> {
  const turn = Math.floor(now / HOUSEKEEPING_MS) % PRUNE_TURNS;
  const rows = await db.all<{ name: string; org_id: number }>(sql`SELECT name, org_id FROM ledgers WHERE ready = 1 AND rowid % ${PRUNE_TURNS} = ${turn}`);
  const before = new Date(now - EVENT_KEEP_MS).toISOString();
  let pruned = 0;
  for (const { name, org_id } of rows) {
    const owner = ownerOfName(name, Number(org_id));
    if (!owner) continue;
    try {
      for (let chunk = 0; chunk < PRUNE_CHUNKS; chunk++) {
        const n = served(await ledgerStub(env, name).pruneEvents(owner, before));
        pruned += n;
        if (n < PRUNE_CHUNK) break;
      }
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', job: 'pruneOldEvents', ledger: name, error: String(error) }));
    }
  }
  return pruned;
}
