import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, organizations, tags, timestamps, users } from './core';

// Contacts and what describes them: addresses, tags, custom fields, subscriptions, the blacklist, imports,
// and the activity log of changes people make.
const orgId = () =>
  integer('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' });

export const fields = sqliteTable(
  'fields',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    /** Used by templates ({{ contact.fields.alias }}); unique per organisation. */
    alias: text('alias').notNull(),
    /** number | text | select | multiselect | boolean; fixed at creation. */
    type: text('type').notNull(),
    priority: integer('priority').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('fields_org_alias').on(t.orgId, t.alias), index('fields_org_priority').on(t.orgId, t.priority)],
);

/** Options of select and multiselect fields. */
export const fieldOptions = sqliteTable(
  'field_options',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    fieldId: integer('field_id')
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    value: text('value').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('field_options_field_value').on(t.fieldId, t.value), index('field_options_org_field').on(t.orgId, t.fieldId)],
);

export const contacts = sqliteTable(
  'contacts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    note: text('note'),
    /**
     * How the contact belongs to the subscriptions (src/modules/membership/rules.ts): 'implied' when the organisation
     * added it (console, API, import: a member of every subscription unless a member row says otherwise, as every
     * contact was before memberships), 'explicit' when the person signed up (a hosted form): a member only where a row
     * says confirmed, and reached by no broadcast until one does.
     */
    membership: text('membership').notNull().default('implied'),
    /** The language the contact reads (one of the eight, src/shared/languages), set on the preferences page or by the organisation; null when unknown. */
    language: text('language'),
    ...timestamps,
  },
  (t) => [
    // Newest first by id (creation order) within the organisation: the contact list's default order.
    index('contacts_org').on(t.orgId),
    index('contacts_org_name').on(t.orgId, t.name),
    index('contacts_org_updated').on(t.orgId, t.updatedAt),
  ],
);

/** An address belongs to one contact per organisation: that is how imports find the contact to update. */
export const contactAddresses = sqliteTable(
  'contact_addresses',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** email | phone */
    type: text('type').notNull(),
    value: text('value').notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [
    uniqueIndex('contact_addresses_org_type_value').on(t.orgId, t.type, t.value),
    index('contact_addresses_contact').on(t.contactId, t.position),
    index('contact_addresses_org_value').on(t.orgId, t.value),
  ],
);

export const contactTags = sqliteTable(
  'contact_tags',
  {
    orgId: orgId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index('contact_tags_org_tag').on(t.orgId, t.tagId, t.contactId)],
);

/**
 * One row per contact, field and value: text in value_text, number and boolean (0/1) in value_number,
 * select in option_id, multiselect as one row per chosen option.
 */
export const contactAttributes = sqliteTable(
  'contact_attributes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    fieldId: integer('field_id')
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    valueText: text('value_text'),
    valueNumber: real('value_number'),
    optionId: integer('option_id').references(() => fieldOptions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('contact_attributes_contact').on(t.contactId, t.fieldId),
    index('contact_attributes_org_field_text').on(t.orgId, t.fieldId, t.valueText),
    index('contact_attributes_org_field_number').on(t.orgId, t.fieldId, t.valueNumber),
    index('contact_attributes_org_option').on(t.orgId, t.optionId),
  ],
);

export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    priority: integer('priority').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('subscriptions_org_name').on(t.orgId, t.name), index('subscriptions_org_priority').on(t.orgId, t.priority)],
);

/**
 * A contact's choice to receive no more messages of a subscription. Broadcasts that skip the unsubscribed
 * leave these contacts out (skipped, with the reason). Written by the public unsubscribe page.
 */
export const unsubscribes = sqliteTable(
  'unsubscribes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** The message whose link was used, when known, and its broadcast. */
    messageId: integer('message_id'),
    broadcastId: integer('broadcast_id'),
    /** One of UNSUBSCRIBE_REASONS (src/shared/contracts/unsubscribe.ts), or null when none was given. */
    reason: text('reason'),
    /** The recipient's own words, when given. */
    comment: text('comment'),
    /** page | one-click | console */
    source: text('source'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('unsubscribes_org_subscription_contact').on(t.orgId, t.subscriptionId, t.contactId),
    index('unsubscribes_contact').on(t.contactId),
    index('unsubscribes_org_broadcast').on(t.orgId, t.broadcastId),
  ],
);

/**
 * A contact's standing in a subscription: pending (signed up, not yet confirmed: reached by no broadcast), confirmed,
 * or unsubscribed. Where no row is, an 'implied' contact counts as confirmed (contacts.membership). An unsubscribed
 * row mirrors the `unsubscribes` row (the act, with its reason), kept so by the triggers of migration 0030: the
 * unsubscribe store stays the one writer of leaving. The consent a form sign-up gave is its `consents` row.
 */
export const subscriptionMembers = sqliteTable(
  'subscription_members',
  {
    orgId: orgId(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** One of MEMBER_STATUSES (src/shared/contracts/membership.ts). */
    status: text('status').notNull(),
    /** One of MEMBER_SOURCES: how the row came to be (import, console, api, form, preferences, unsubscribe, migration). */
    source: text('source').notNull(),
    /** The sign-up this membership came from (a form's), when it did. */
    consentId: integer('consent_id'),
    /** A pending row is removed after this (ISO 8601), and its contact with it when nothing else holds the contact. */
    expiresAt: text('expires_at'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.subscriptionId, t.contactId] }),
    index('subscription_members_contact').on(t.contactId),
    index('subscription_members_org_status').on(t.orgId, t.subscriptionId, t.status),
    index('subscription_members_expiry').on(t.expiresAt),
  ],
);

/** Phone numbers that replied STOP (or another opt-out keyword) to the organisation: no SMS goes to them. */
export const smsOptOuts = sqliteTable(
  'sms_opt_outs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    /** E.164, as the provider reported the sender of the reply. */
    phone: text('phone').notNull(),
    keyword: text('keyword').notNull(),
    integrationId: integer('integration_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('sms_opt_outs_org_phone').on(t.orgId, t.phone)],
);

/** Addresses that are never sent to. */
export const blacklist = sqliteTable(
  'blacklist',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    type: text('type').notNull(),
    value: text('value').notNull(),
    info: text('info'),
    /** Why the platform suppressed it (bounce | soft_bounces | complaint); null: added by a person or the API. */
    reason: text('reason'),
    /** The message whose bounce or complaint suppressed it (in the organisation's ledger: no foreign key). */
    messageId: integer('message_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('blacklist_org_type_value').on(t.orgId, t.type, t.value), index('blacklist_org_created').on(t.orgId, t.createdAt)],
);

/**
 * Soft bounces of an address within the organisation's window (organizations.soft_bounce_days): counted from
 * `since`, once per message; at the organisation's limit the address is blacklisted (src/modules/bounce/soft-bounces.ts).
 */
export const softBounces = sqliteTable(
  'soft_bounces',
  {
    orgId: orgId(),
    address: text('address').notNull(),
    count: integer('count').notNull(),
    since: text('since').notNull(),
    lastMessageId: integer('last_message_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.address] })],
);

export const imports = sqliteTable(
  'imports',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The organisation API key that started the import when no user did (org_api_keys.id). */
    apiKeyId: integer('api_key_id'),
    fileName: text('file_name').notNull(),
    /** R2 key of the uploaded CSV. */
    fileKey: text('file_key').notNull(),
    fileSize: integer('file_size').notNull().default(0),
    /** new | processing | success | fail */
    status: text('status').notNull().default('new'),
    skipFirstLine: integer('skip_first_line', { mode: 'boolean' }).notNull().default(true),
    /** comma | semicolon | tab: what separates the file's values. */
    delimiter: text('delimiter').notNull().default('comma'),
    /** utf-8 | windows-1252: how the file's bytes are read as text. */
    encoding: text('encoding').notNull().default('utf-8'),
    /** Column index -> { kind: 'name' | 'note' | 'address' | 'field' | 'tags', address type or field id }. */
    mapping: text('mapping', { mode: 'json' }).notNull(),
    /** Tags every imported contact gets, besides those of its row (ids, as JSON); [] for none. */
    tagIds: text('tag_ids', { mode: 'json' }),
    /** Subscriptions every imported contact joins as a confirmed member, source 'import' (ids, as JSON); [] for none. */
    subscriptionIds: text('subscription_ids', { mode: 'json' }).notNull().default('[]'),
    createdCount: integer('created_count').notNull().default(0),
    updatedCount: integer('updated_count').notNull().default(0),
    rejectedCount: integer('rejected_count').notNull().default(0),
    /** The first rejected rows with their reasons (capped), as JSON [{ row, reason }]. */
    rejections: text('rejections', { mode: 'json' }),
    /** Byte offset and row number already committed, so a retried job resumes instead of redoing rows. */
    cursorBytes: integer('cursor_bytes').notNull().default(0),
    cursorRow: integer('cursor_row').notNull().default(0),
    error: text('error'),
    finishedAt: text('finished_at'),
    ...timestamps,
  },
  (t) => [index('imports_org_created').on(t.orgId, t.createdAt)],
);

/** One row per changed field of a create, update or delete made by a person, or by software with an organisation API key. */
export const activityLog = sqliteTable(
  'activity_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    userId: integer('user_id'),
    /** The organisation API key that made the change (org_api_keys.id); null when a person did. */
    apiKeyId: integer('api_key_id'),
    entity: text('entity').notNull(),
    entityId: integer('entity_id'),
    /** create | update | delete */
    action: text('action').notNull(),
    field: text('field').notNull(),
    previousValue: text('previous_value'),
    newValue: text('new_value'),
    browser: text('browser'),
    os: text('os'),
    device: text('device'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('activity_log_org_created').on(t.orgId, t.createdAt), index('activity_log_org_entity').on(t.orgId, t.entity, t.entityId)],
);
