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
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [uniqueIndex('ledgers_org_generation').on(t.orgId, t.generation), uniqueIndex('ledgers_id_base').on(t.idBase)],
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
