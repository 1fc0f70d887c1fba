import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, organizations, timestamps, users } from './core';

// Identity and the platform around the organisations: sign-up, pre-registration, one-time codes, social
// accounts, API keys, mail the platform sends itself, and platform-wide settings.

/** Platform-wide settings an operator changes at run time (signup.enabled, signup.active, demo reset state). */
export const platformSettings = sqliteTable('platform_settings', {
  key: text('key').primaryKey(),
  /** JSON-encoded value. */
  value: text('value').notNull(),
  updatedAt: text('updated_at').notNull().default(now),
});

/**
 * A sign-up in progress ("become a client"). Nothing of the account exists until payment succeeds; then the
 * organisation and user are created and `orgId`/`userId` point at them.
 */
export const signups = sqliteTable(
  'signups',
  {
    id: text('id').primaryKey(),
    /** pending (awaiting payment), paid (account created, completion link emailed), completed. */
    status: text('status').notNull().default('pending'),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    orgName: text('org_name').notNull(),
    domain: text('domain').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    /** `stripe` or `test`: which checkout the payment goes through. */
    paymentProvider: text('payment_provider').notNull(),
    /** The provider's checkout reference (Stripe Checkout Session id). */
    checkoutRef: text('checkout_ref'),
    paidAt: text('paid_at'),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    userId: integer('user_id'),
    expiresAt: text('expires_at').notNull(),
    ...timestamps,
  },
  (t) => [index('signups_domain').on(t.domain), uniqueIndex('signups_checkout_ref').on(t.checkoutRef)],
);

/** A visitor's request to join while registration is paused; an operator approves or declines it. */
export const preRegistrations = sqliteTable(
  'pre_registrations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    orgName: text('org_name').notNull(),
    domain: text('domain'),
    comments: text('comments').notNull(),
    /** pending, approved, declined. */
    status: text('status').notNull().default('pending'),
    reviewNote: text('review_note'),
    reviewedAt: text('reviewed_at'),
    ...timestamps,
  },
  (t) => [index('pre_registrations_status').on(t.status, t.createdAt)],
);

/** Single-use codes sent by mail (password reset, sign-up completion). Only a hash of the code is kept. */
export const oneTimeCodes = sqliteTable(
  'one_time_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** password_reset or sign_complete. */
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull().unique(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('one_time_codes_org_user').on(t.orgId, t.userId, t.purpose)],
);

/** A social identity (provider + subject) linked to a user; a user has at most one per provider. */
export const socialAccounts = sqliteTable(
  'social_accounts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    displayName: text('display_name'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('social_accounts_org_provider_subject').on(t.orgId, t.provider, t.subject),
    uniqueIndex('social_accounts_org_user_provider').on(t.orgId, t.userId, t.provider),
  ],
);

/** An OAuth authorisation in flight: what to do when the provider sends the browser back. Single use. */
export const oauthStates = sqliteTable('oauth_states', {
  stateHash: text('state_hash').primaryKey(),
  orgId: integer('org_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  provider: text('provider').notNull(),
  /** login or link. */
  action: text('action').notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  codeVerifier: text('code_verifier').notNull(),
  device: text('device'),
  expiresAt: text('expires_at').notNull(),
  createdAt: text('created_at').notNull().default(now),
  /**
   * Set when the provider confirmed the identity of a link: the console of the browser that started it then
   * confirms the link with its session (the callback alone never links). The identity waits here until then.
   */
  verifiedAt: text('verified_at'),
  subject: text('subject'),
  email: text('email'),
  displayName: text('display_name'),
});

/** One API key per user; only a hash of the key is kept. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The key's visible prefix, so a person can tell keys apart without the secret. */
    name: text('name').notNull(),
    note: text('note'),
    keyHash: text('key_hash').notNull().unique(),
    ...timestamps,
  },
  (t) => [uniqueIndex('api_keys_org_user').on(t.orgId, t.userId)],
);

/**
 * Organisation API keys: keys for the organisation's software rather than a person (several per organisation, each
 * named and scoped, src/modules/api-key). Only a hash of the key is kept; a revoked key stays listed as revoked.
 */
export const orgApiKeys = sqliteTable(
  'org_api_keys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** send | read | full (src/shared/contracts/org-api-key.ts). */
    scope: text('scope').notNull(),
    /** A test key (rk_test_...) runs everything but never delivers. */
    test: integer('test', { mode: 'boolean' }).notNull().default(false),
    /** The key's first characters (`rk_live_AbCdEf`), so a person can tell keys apart without the secret. */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key. */
    keyHash: text('key_hash').notNull().unique(),
    createdByUserId: integer('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: text('last_used_at'),
    revokedAt: text('revoked_at'),
    ...timestamps,
  },
  (t) => [index('org_api_keys_org_created').on(t.orgId, t.createdAt)],
);

/** Mail the platform sends itself (reset, completion, pre-registration), delivered by the send queue. */
export const systemMails = sqliteTable(
  'system_mails',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id').references(() => organizations.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** Cleared once sent: links in it carry one-time codes. */
    text: text('text'),
    html: text('html'),
    /** queued, sending, sent, failed. */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    /** The token of the delivery that claimed it (status sending): see src/modules/sending/claim.ts. */
    claim: text('claim'),
    error: text('error'),
    sentAt: text('sent_at'),
    ...timestamps,
  },
  (t) => [index('system_mails_status').on(t.status, t.updatedAt)],
);
