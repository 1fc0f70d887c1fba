import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, organizations } from './core';

// The registry of the organisations' ledgers (src/modules/ledger): which Durable Objects exist, for whom, and how
// big the size guard last found them. Every call to a ledger goes through it, so a late request for a deleted
// organisation never recreates one.

export const ledgers = sqliteTable(
  'ledgers',
  {
    /** The Durable Object's name: `<ledger_key>:g<generation>`. */
    name: text('name').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** 0 for the organisation's first ledger; the size guard opens the next. */
    generation: integer('generation').notNull(),
    /** Bytes of its SQLite storage when the size guard last measured it. */
    sizeBytes: integer('size_bytes'),
    measuredAt: text('measured_at'),
    /** Its message ids start above id_base x 2^32 (src/modules/ledger/ids.ts); given when it is registered. */
    idBase: integer('id_base'),
    /** Initialised for its owner: until then the next use initialises it (registry.ts). */
    ready: integer('ready', { mode: 'boolean' }).notNull().default(false),
    /** When the daily repair last recomputed its kept list totals (src/modules/ledger/recount.ts). */
    countedAt: text('counted_at'),
    /**
     * Single (test) messages for the watchdog: bumped after each is written, and `singlesChecked` takes the mark the
     * watchdog read once it finds none of them unfinished; only ledgers with mark > checked are asked (singles.ts).
     * Starts at 1 so a ledger made before this is asked once.
     */
    singlesMark: integer('singles_mark').notNull().default(1),
    singlesChecked: integer('singles_checked').notNull().default(0),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [
    uniqueIndex('ledgers_org_generation').on(t.orgId, t.generation),
    uniqueIndex('ledgers_id_base').on(t.idBase),
    // The watchdog's each minute: only the ledgers with single messages it has not seen finish.
    index('ledgers_singles_pending').on(t.name).where(sql`${t.singlesMark} > ${t.singlesChecked}`),
  ],
);

/**
 * Ledgers of deleted organisations, waiting for the drainer to empty them. Written in the account deletion's own
 * D1 batch and deliberately not tied to the organisation, so the cascade that removes it leaves these rows.
 */
export const ledgerDeletions = sqliteTable(
  'ledger_deletions',
  {
    name: text('name').primaryKey(),
    orgId: integer('org_id').notNull(),
    requestedAt: text('requested_at').notNull().default(now),
  },
  (t) => [index('ledger_deletions_requested').on(t.requestedAt)],
);
