import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { organizations } from './core';

// Usage counted as it happens, one row per organisation and UTC day: the dashboard reads a handful of rows,
// never the messages or events themselves. Each writer adds to its own columns with an upsert.
export const orgDailyStats = sqliteTable(
  'org_daily_stats',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** YYYY-MM-DD, UTC. */
    day: text('day').notNull(),
    /** API requests of the organisation and the bytes of their bodies, in and out. */
    requests: integer('requests').notNull().default(0),
    requestBytes: integer('request_bytes').notNull().default(0),
    emailsSent: integer('emails_sent').notNull().default(0),
    smsSent: integer('sms_sent').notNull().default(0),
    messagesFailed: integer('messages_failed').notNull().default(0),
    opens: integer('opens').notNull().default(0),
    humanOpens: integer('human_opens').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    humanClicks: integer('human_clicks').notNull().default(0),
    unsubscribes: integer('unsubscribes').notNull().default(0),
    contactsCreated: integer('contacts_created').notNull().default(0),
    contactsDeleted: integer('contacts_deleted').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);
