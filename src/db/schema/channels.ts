import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { organizations, timestamps } from './core';
import { contacts } from './audience';

// How messages leave: integrations (SMTP servers, the SMS provider) and their senders, the content
// (templates with attachments, campaigns) and the messages themselves.
const orgId = () =>
  integer('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const integrations = sqliteTable(
  'integrations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    /** smtp | twilio; fixed at creation. */
    type: text('type').notNull(),
    /** active | merging */
    status: text('status').notNull().default('active'),
    note: text('note'),
    /** smtp: server, port, ssl, tls, domain, return_path, user. twilio: sid. Never secrets. */
    details: text('details', { mode: 'json' }).notNull(),
    /** AES-GCM ciphertext of { password } or { token }, key from the environment. Never returned. */
    secret: text('secret').notNull(),
    shouldMerge: integer('should_merge', { mode: 'boolean' }).notNull().default(true),
    priority: integer('priority').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('integrations_org_priority').on(t.orgId, t.priority)],
);

export const senders = sqliteTable(
  'senders',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** email | phone */
    type: text('type').notNull(),
    value: text('value').notNull(),
    name: text('name'),
    note: text('note'),
    priority: integer('priority').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('senders_org_integration_type_value').on(t.orgId, t.integrationId, t.type, t.value),
    index('senders_org_priority').on(t.orgId, t.priority),
  ],
);

export const templates = sqliteTable(
  'templates',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    /** html | text | email; fixed at creation. */
    type: text('type').notNull(),
    name: text('name').notNull(),
    alias: text('alias'),
    note: text('note'),
    subject: text('subject'),
    body: text('body').notNull(),
    bodyPlain: text('body_plain'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('templates_org_alias').on(t.orgId, t.alias),
    index('templates_org_name').on(t.orgId, t.name),
    index('templates_org_updated').on(t.orgId, t.updatedAt),
  ],
);

export const templateAttachments = sqliteTable(
  'template_attachments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    /** R2 key, under the organisation: orgs/{org_id}/templates/{template_id}/{uuid} */
    fileKey: text('file_key').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    ...timestamps,
  },
  (t) => [index('template_attachments_template').on(t.orgId, t.templateId)],
);

export const campaigns = sqliteTable(
  'campaigns',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    alias: text('alias'),
    note: text('note'),
    ...timestamps,
  },
  (t) => [uniqueIndex('campaigns_org_alias').on(t.orgId, t.alias), index('campaigns_org_name').on(t.orgId, t.name)],
);

/** The template + sender pairs of a campaign, in order. */
export const campaignSettings = sqliteTable(
  'campaign_settings',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => senders.id, { onDelete: 'cascade' }),
    toAddress: text('to_address'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('campaign_settings_campaign').on(t.orgId, t.campaignId, t.position)],
);

/** Every email or SMS the platform sends, test messages included. */
export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    /** email | sms */
    type: text('type').notNull(),
    /** queued | sent | failed */
    status: text('status').notNull().default('queued'),
    senderId: integer('sender_id').references(() => senders.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    broadcastId: integer('broadcast_id'),
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name'),
    toAddress: text('to_address').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    bodyPlain: text('body_plain'),
    delayedAt: text('delayed_at'),
    sentAt: text('sent_at'),
    /** Provider id: the SMTP Message-ID or the SMS provider's message SID. */
    externalId: text('external_id'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    opensTotal: integer('opens_total').notNull().default(0),
    opensUnique: integer('opens_unique').notNull().default(0),
    clicksTotal: integer('clicks_total').notNull().default(0),
    clicksUnique: integer('clicks_unique').notNull().default(0),
    clickedAt: text('clicked_at'),
    ...timestamps,
  },
  (t) => [
    index('messages_org_created').on(t.orgId, t.createdAt),
    index('messages_org_status').on(t.orgId, t.status),
    index('messages_org_broadcast').on(t.orgId, t.broadcastId),
    index('messages_external').on(t.externalId),
    // Deleting a contact sets its messages' contact_id to null: without this it scans every message.
    index('messages_contact').on(t.contactId),
    // The cron's sweep for messages left 'sending' (all organisations).
    index('messages_status_updated').on(t.status, t.updatedAt),
  ],
);
