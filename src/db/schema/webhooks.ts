import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { organizations, timestamps } from './core';

// The event stream's D1 side and the organisations' webhook endpoints (issue 38, src/modules/event, src/modules/webhook).
//
// What changes in D1 (contacts, unsubscribes, suppressions, SMS opt-outs) records its event in `event_outbox` in the
// same transaction, by the triggers of migration 0029 (or, for an inbound SMS, by the route's own batch). The
// organisation's first ledger absorbs the outbox into its stream (src/modules/event/absorb.ts) and deletes what it
// took: the stream itself lives in the ledgers, beside the messages' own events (ledger step 14).

export const eventOutbox = sqliteTable(
  'event_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The event's id in the stream ('evt_' and 32 hex digits), made here so an absorption repeated inserts nothing twice. */
    eventId: text('event_id').notNull(),
    /** No foreign key: the rows an organisation's deletion writes (its contacts' deletions) must not stop it; the absorber drops a gone organisation's rows. */
    orgId: integer('org_id').notNull(),
    /** One of EVENT_TYPES (src/shared/contracts/events.ts). */
    type: text('type').notNull(),
    /** The contact the event is about, when it is about one: contact.created and .updated take its data when absorbed. */
    contactId: integer('contact_id'),
    /** The event's data as the change left it (JSON), or null when it is read when absorbed (contact.created, .updated). */
    data: text('data'),
    /** When the change happened (ISO 8601, milliseconds): the event's time. */
    at: text('at').notNull(),
  },
  (t) => [index('event_outbox_org').on(t.orgId, t.id)],
);

/** Where an organisation's systems hear of its events: one URL each, signed the Standard Webhooks way. */
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    /** JSON array of EVENT_TYPES the endpoint receives; ["*"] for every type, present and future. */
    eventTypes: text('event_types', { mode: 'json' }).$type<string[]>().notNull(),
    /** The caller's extra request headers, JSON object sealed with SECRETS_KEY (they often hold a token); null: none. */
    headers: text('headers'),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    /** Opt-in: a request carries an array of up to 100 events instead of one. */
    batch: integer('batch', { mode: 'boolean' }).notNull().default(false),
    /** The signing secret ('whsec_' and base64), sealed with SECRETS_KEY: it signs, so it is kept, not hashed. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, sealed, and until when it still signs beside the new one (24 hours). */
    previousSecret: text('previous_secret'),
    previousSecretUntil: text('previous_secret_until'),
    /** Why it is off when the platform turned it off: 'gone' (the receiver answered 410) or 'failing' (a day of failures). */
    disabledReason: text('disabled_reason'),
    disabledAt: text('disabled_at'),
    /** Since when every attempt failed (null: the last one got through). */
    failingSince: text('failing_since'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_org').on(t.orgId)],
);
