import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now, organizations } from './core';

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
    /**
     * Recipients who first opened (a click counts as an open) or clicked that day, all and judged human: the
     * dashboard's opens and clicks, the same definition as a broadcast's recipients who opened (count.ts).
     */
    opened: integer('opened').notNull().default(0),
    humanOpened: integer('human_opened').notNull().default(0),
    clicked: integer('clicked').notNull().default(0),
    humanClicked: integer('human_clicked').notNull().default(0),
    unsubscribes: integer('unsubscribes').notNull().default(0),
    /** Messages that bounced (hard) and that were reported as spam that day (src/modules/bounce). */
    bounces: integer('bounces').notNull().default(0),
    complaints: integer('complaints').notNull().default(0),
    contactsCreated: integer('contacts_created').notNull().default(0),
    contactsDeleted: integer('contacts_deleted').notNull().default(0),
    /** Gauges, not sums: the organisation's D1 share and R2 bytes as last known that day (null: unchanged that day). */
    dataBytes: integer('data_bytes'),
    fileBytes: integer('file_bytes'),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);

/**
 * The organisation's volumes now: R2 bytes (kept on every upload and delete through src/modules/files) and its
 * share of D1 (measured by the cron, src/modules/stats/data-volume.ts). One row per organisation.
 */
export const orgUsage = sqliteTable('org_usage', {
  orgId: integer('org_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  fileBytes: integer('file_bytes').notNull().default(0),
  dataBytes: integer('data_bytes').notNull().default(0),
  dataMeasuredAt: text('data_measured_at'),
});

/**
 * Every object an organisation keeps in R2, with its size: what file volume adds up, and what the cron's cleanup
 * finds (imports never started, import files past their grace period). A row is written before its object, so an
 * upload cut off half-way is still found and removed.
 */
export const storedFiles = sqliteTable(
  'stored_files',
  {
    key: text('key').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** import | attachment | snapshot | archive */
    kind: text('kind').notNull(),
    bytes: integer('bytes').notNull().default(0),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('stored_files_org_kind').on(t.orgId, t.kind, t.createdAt), index('stored_files_kind_created').on(t.kind, t.createdAt)],
);

/** One archived chunk of messages (with their tracking events): gzip NDJSON in R2 under the organisation and month. */
export const messageArchives = sqliteTable(
  'message_archives',
  {
    key: text('key').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** YYYY-MM of the messages' created_at. */
    month: text('month').notNull(),
    messages: integer('messages').notNull(),
    firstId: integer('first_id').notNull(),
    lastId: integer('last_id').notNull(),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('message_archives_org_month').on(t.orgId, t.month)],
);

/**
 * Row counts the lists answer meta.total from instead of counting a million rows per page
 * (src/modules/stats/list-counts.ts): per organisation its contacts ('contacts', key 0), the contacts of each tag
 * ('tag', the tag id), its messages ('messages', key 0) and each broadcast's messages ('broadcast_messages', the
 * broadcast id). Triggers of migration 0011 keep them in the same write as the rows; the cron's repair recomputes
 * them and reports drift.
 */
export const listCounts = sqliteTable(
  'list_counts',
  {
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    key: integer('key').notNull().default(0),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.list, t.key] })],
);
