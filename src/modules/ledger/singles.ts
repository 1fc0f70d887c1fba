import { and, eq, sql } from 'drizzle-orm';
import { ledgers } from '../../db/schema';
import type { Database } from '../../db/client';
import { ledgerName } from './owner';
import type { LedgerHandle } from './registry';

// Which ledgers the watchdog asks about single (test) messages left sending: not every ledger each minute, only those
// with a single message it has not yet seen finish. Writing a single bumps its ledger's mark in the registry *after*
// the message is in the ledger; the watchdog reads the mark, asks the ledger, and when none of its singles is
// unfinished records that mark as checked. A single written meanwhile either bumped the mark past what was read (so
// the ledger stays pending) or was already in the ledger when it was asked (so it was seen unfinished). One D1 write
// per single message: they are test messages, sent by hand.

/** Records that a single message was written into the ledger (call after the write). */
export async function markSingleWritten(db: Database, handle: LedgerHandle): Promise<void> {
  const name = ledgerName(handle.owner.key, handle.owner.generation);
  await db.run(sql`UPDATE ledgers SET singles_mark = singles_mark + 1 WHERE name = ${name}`);
}

export interface PendingSingles {
  name: string;
  orgId: number;
  mark: number;
}

/**
 * Up to `limit` ready ledgers with single messages the watchdog has not seen finish: the ones it asks this minute
 * (the partial index's own condition).
 */
export const ledgersWithPendingSingles = (db: Database, limit = 500) =>
  db
    .select({ name: ledgers.name, orgId: ledgers.orgId, mark: ledgers.singlesMark })
    .from(ledgers)
    .where(and(sql`${ledgers.singlesMark} > ${ledgers.singlesChecked}`, eq(ledgers.ready, true)))
    .limit(limit);

/** The ledger had no unfinished single message when asked after the mark was read: it is checked up to that mark. */
export async function markSinglesChecked(db: Database, pending: PendingSingles): Promise<void> {
  await db.run(sql`UPDATE ledgers SET singles_checked = ${pending.mark} WHERE name = ${pending.name} AND singles_checked < ${pending.mark}`);
}
