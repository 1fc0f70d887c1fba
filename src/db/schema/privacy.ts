import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now, organizations } from './core';

// A person's data requests (GDPR articles 15, 17 and 20: src/modules/privacy): erasures in progress and done, and the
// addresses an erasure put on the organisation's "do not re-add" list.
const orgId = () =>
  integer('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

/**
 * Addresses erased at the person's request, as a keyed hash (src/modules/privacy/address-digest.ts): an import, the
 * console or the API cannot add them again; the person's own form sign-up can, and lifts the row.
 */
export const erasedAddresses = sqliteTable(
  'erased_addresses',
  {
    orgId: orgId(),
    digest: text('digest').notNull(),
    erasedAt: text('erased_at').notNull().default(now),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.digest] })],
);

/**
 * One erasure: its journal while it runs (`subject`: the addresses and name it must find everywhere, the only
 * personal data it keeps, and only until it is done), then what it reached (`summary`, counts only).
 */
export const erasures = sqliteTable(
  'erasures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    contactId: integer('contact_id').notNull(),
    /** running | done */
    state: text('state').notNull().default('running'),
    /** JSON { name, addresses: [{ type, value }] } while running; null once done. */
    subject: text('subject'),
    /** JSON of the counts (messages, archive objects rewritten, ...) once done. */
    summary: text('summary'),
    userId: integer('user_id'),
    apiKeyId: integer('api_key_id'),
    createdAt: text('created_at').notNull().default(now),
    finishedAt: text('finished_at'),
  },
  (t) => [index('erasures_org_state').on(t.orgId, t.state)],
);
