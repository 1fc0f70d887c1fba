import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { organizations, timestamps } from './core';
import { contacts, subscriptions } from './audience';
import type { SendOptions } from '../../shared/contracts/transactional';

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
    /**
     * DKIM: true when Relay signs the mail it sends through this integration with the sender's verified domain
     * (src/modules/domain); false for a provider that signs or rewrites mail itself ("the relay signs").
     */
    dkimSigning: integer('dkim_signing', { mode: 'boolean' }).notNull().default(true),
    /** Optional ceiling in messages per second, shared by every broadcast and test message using it. */
    maxRate: real('max_rate'),
    /**
     * A copy of the send gate's hold (the gate itself is in the organisation's ledger, src/modules/sending/send-gate.ts):
     * a provider's "try later" (SMTP 421/450/451, Twilio 429) holds every send until then, epoch ms. Read with the
     * integration, so a batch of an integration with no rate and no hold needs no call to the ledger.
     */
    heldUntil: integer('held_until').notNull().default(0),
    /** The same copy: consecutive "try later" answers (each doubles the hold), reset by a batch that gets through. */
    throttleLevel: integer('throttle_level').notNull().default(0),
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

/**
 * A bulk send of one template from one sender to the contacts a filter selects. The BroadcastRunner Durable
 * Object owns its run; the counters are written in the same transactions as the message rows they count, so
 * sent + failed + skipped = total holds at every moment.
 */
export const broadcasts = sqliteTable(
  'broadcasts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    name: text('name').notNull(),
    alias: text('alias'),
    note: text('note'),
    /** email | phone */
    type: text('type').notNull(),
    /** waiting | queued | sending | paused | cancelled | finished */
    status: text('status').notNull(),
    senderId: integer('sender_id').references(() => senders.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    doNotUnsubscribe: integer('do_not_unsubscribe', { mode: 'boolean' }).notNull().default(false),
    skipUnsubscribed: integer('skip_unsubscribed', { mode: 'boolean' }).notNull().default(true),
    trackOpens: integer('track_opens', { mode: 'boolean' }).notNull().default(true),
    trackClicks: integer('track_clicks', { mode: 'boolean' }).notNull().default(true),
    /** Seconds between two sends; 0 = as fast as allowed. */
    sleep: integer('sleep').notNull().default(0),
    delayedAt: text('delayed_at'),
    startedAt: text('started_at'),
    finishedAt: text('finished_at'),
    /** { filter, search } as given (src/shared/contracts/broadcast.ts Recipients). */
    contacts: text('contacts', { mode: 'json' }).notNull(),
    /** Template and sender frozen when it starts (broadcast-snapshot.ts); null until then. */
    snapshot: text('snapshot', { mode: 'json' }),
    /** The highest contact id when it started: contacts created later are not recipients. */
    lastContactId: integer('last_contact_id'),
    /** Keyset cursor: recipients with contact id <= cursor have their message row. */
    cursor: integer('cursor').notNull().default(0),
    /** True once the cursor has walked the whole filter (total is final). */
    enumerated: integer('enumerated', { mode: 'boolean' }).notNull().default(false),
    /**
     * How many contacts the filter selected when it started (counted with last_contact_id): the total shown until
     * the walk is complete, which can differ by the contacts deleted meanwhile. Null before it starts.
     */
    plannedTotal: integer('planned_total'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    // Engagement, kept by the tracking consumer as hits are counted (src/modules/tracking/count.ts): totals of
    // every hit, recipients with at least one (unique), and the same for hits classified human.
    opens: integer('opens').notNull().default(0),
    opensUnique: integer('opens_unique').notNull().default(0),
    humanOpens: integer('human_opens').notNull().default(0),
    humanOpensUnique: integer('human_opens_unique').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    clicksUnique: integer('clicks_unique').notNull().default(0),
    humanClicks: integer('human_clicks').notNull().default(0),
    humanClicksUnique: integer('human_clicks_unique').notNull().default(0),
    unsubscribes: integer('unsubscribes').notNull().default(0),
    /** Its messages that bounced (hard) and that were reported as spam, as the bounce handler found (src/modules/bounce). */
    bounces: integer('bounces').notNull().default(0),
    complaints: integer('complaints').notNull().default(0),
    /** Its SMS whose delivery report first said undelivered or failed, each once (src/modules/sms-hooks/delivery-status.ts). */
    undelivered: integer('undelivered').notNull().default(0),
    /** Why the engine paused it (null when paused by a user). */
    pausedReason: text('paused_reason'),
    /** Batches in a row that could not reach the SMTP server at all; three pause the broadcast. */
    connectFailures: integer('connect_failures').notNull().default(0),
    /** Until when the integration's send limit holds its messages back (ISO time). */
    heldUntil: text('held_until'),
    /** The ledger's revision of status and counters this row shows (a started broadcast's projection: src/modules/ledger/projection.ts). */
    rev: integer('rev').notNull().default(0),
    /**
     * Which of the organisation's ledgers holds it once started (its generation, src/modules/ledger/registry.ts): the
     * newest when it started; it stays there when the size guard opens the next. Null before the start.
     */
    ledgerGeneration: integer('ledger_generation'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('broadcasts_org_alias').on(t.orgId, t.alias),
    index('broadcasts_org_created').on(t.orgId, t.createdAt),
    index('broadcasts_org_status').on(t.orgId, t.status),
    index('broadcasts_org_name').on(t.orgId, t.name),
  ],
);

/** Every email or SMS the platform sends, test messages included. */
export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    /** email | sms */
    type: text('type').notNull(),
    /** queued | sending (claimed by a consumer) | sent | failed | skipped (broadcast recipients only) */
    status: text('status').notNull().default('queued'),
    senderId: integer('sender_id').references(() => senders.id, { onDelete: 'set null' }),
    templateId: integer('template_id').references(() => templates.id, { onDelete: 'set null' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** The contact's name when the message was made (the recipients tab lists and searches it without the contacts). */
    contactName: text('contact_name'),
    /** The broadcast it belongs to (no foreign key: messages predate broadcasts, and broadcasts are never deleted). */
    broadcastId: integer('broadcast_id'),
    isTest: integer('is_test', { mode: 'boolean' }).notNull().default(false),
    fromAddress: text('from_address').notNull(),
    fromName: text('from_name'),
    /** '' for a broadcast recipient without an address of the broadcast's type (skipped). */
    toAddress: text('to_address').notNull(),
    subject: text('subject'),
    /** '' for broadcast messages: they are rendered from the broadcast's snapshot when sent or viewed. */
    body: text('body').notNull(),
    bodyPlain: text('body_plain'),
    delayedAt: text('delayed_at'),
    sentAt: text('sent_at'),
    /** Provider id: the SMTP Message-ID or the SMS provider's message SID. */
    externalId: text('external_id'),
    error: text('error'),
    /** A failure that another try may cure (the broadcast's "retry failed" sends these again). */
    retryable: integer('retryable', { mode: 'boolean' }),
    attempts: integer('attempts').notNull().default(0),
    /** The token of the delivery that claimed it (status sending): see src/modules/sending/claim.ts. */
    claim: text('claim'),
    opensTotal: integer('opens_total').notNull().default(0),
    opensUnique: integer('opens_unique').notNull().default(0),
    clicksTotal: integer('clicks_total').notNull().default(0),
    clicksUnique: integer('clicks_unique').notNull().default(0),
    clickedAt: text('clicked_at'),
    openedAt: text('opened_at'),
    humanOpens: integer('human_opens').notNull().default(0),
    humanClicks: integer('human_clicks').notNull().default(0),
    humanOpenedAt: text('human_opened_at'),
    humanClickedAt: text('human_clicked_at'),
    /** The SMS provider's delivery report, moved forward only: sent | delivered | undelivered | failed. */
    deliveryStatus: text('delivery_status'),
    /** The provider's error code with an undelivered or failed report (Twilio's ErrorCode). */
    deliveryErrorCode: text('delivery_error_code'),
    /** The organisation API key a transactional message was sent with (POST /send); null for the console's and broadcasts'. */
    apiKeyId: integer('api_key_id'),
    /** The caller's own strings kept with a transactional message and echoed in its events ({ key: value }). */
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, string>>(),
    /** How a transactional message goes out beyond its row (src/shared/contracts/transactional.ts). */
    sendOptions: text('send_options', { mode: 'json' }).$type<SendOptions>(),
    ...timestamps,
  },
  (t) => [
    index('messages_org_created').on(t.orgId, t.createdAt),
    // Newest first by id (creation order) within the organisation: the message list's default order.
    index('messages_org').on(t.orgId),
    index('messages_org_status').on(t.orgId, t.status),
    index('messages_org_broadcast').on(t.orgId, t.broadcastId),
    // One message per recipient per broadcast: a page walked twice never makes a second one.
    uniqueIndex('messages_broadcast_contact').on(t.broadcastId, t.contactId),
    index('messages_external').on(t.externalId),
    // Deleting a contact sets its messages' contact_id to null: without this it scans every message.
    index('messages_contact').on(t.contactId),
    // The cron's sweep for messages left 'sending' (all organisations).
    index('messages_status_updated').on(t.status, t.updatedAt),
  ],
);

/**
 * Every open and click hit, never dropped: classified (human | prefetch | scanner | unknown) with the reason,
 * written in batches by the events queue. The message's and broadcast's counters are derived from these rows
 * by src/modules/tracking/count.ts in the same write.
 */
export const trackingEvents = sqliteTable(
  'tracking_events',
  {
    /** Made when the hit arrived: a redelivered queue message inserts nothing twice. */
    id: text('id').primaryKey(),
    orgId: orgId(),
    messageId: integer('message_id').notNull(),
    broadcastId: integer('broadcast_id'),
    /** open | click */
    kind: text('kind').notNull(),
    /** The link's position in the message (clicks); -1 for the hidden honeypot link. */
    linkIndex: integer('link_index'),
    url: text('url'),
    /** human | prefetch | scanner | unknown */
    class: text('class').notNull(),
    reason: text('reason').notNull(),
    method: text('method').notNull(),
    userAgent: text('user_agent'),
    /** A keyed hash of the client address: enough to tell addresses apart, not to recover them. */
    ipHash: text('ip_hash'),
    asn: integer('asn'),
    asOrganization: text('as_organization'),
    /** When the hit arrived (ISO). */
    at: text('at').notNull(),
    ...timestamps,
  },
  (t) => [index('tracking_events_org_message').on(t.orgId, t.messageId, t.at)],
);

/** Clicks per link of a broadcast (total and unique recipients, all and human): GET /broadcast/{id}/clicks. */
export const broadcastLinks = sqliteTable(
  'broadcast_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: orgId(),
    broadcastId: integer('broadcast_id').notNull(),
    linkIndex: integer('link_index').notNull(),
    url: text('url').notNull(),
    clicks: integer('clicks').notNull().default(0),
    clicksUnique: integer('clicks_unique').notNull().default(0),
    humanClicks: integer('human_clicks').notNull().default(0),
    humanClicksUnique: integer('human_clicks_unique').notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex('broadcast_links_org_broadcast_link').on(t.orgId, t.broadcastId, t.linkIndex)],
);
