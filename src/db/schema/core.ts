import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

// Every tenant table has `org_id NOT NULL` and indexes that lead with it (ARCHITECTURE.md, convention 1).
export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
export const timestamps = {
  createdAt: text('created_at').notNull().default(now),
  updatedAt: text('updated_at').notNull().default(now),
};

export const organizations = sqliteTable('organizations', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  /** The subdomain label, e.g. `acme` for acme.example.com. */
  domain: text('domain').notNull().unique(),
  /** Defaults for new broadcasts: an open pixel and click redirects in email html (src/modules/tracking). */
  trackOpens: integer('track_opens', { mode: 'boolean' }).notNull().default(true),
  trackClicks: integer('track_clicks', { mode: 'boolean' }).notNull().default(true),
  /** Days a message stays in D1 before the cron archives it to R2; null: the platform's default (src/modules/retention). */
  messageRetentionDays: integer('message_retention_days'),
  /** Names the organisation's ledgers (src/modules/ledger): random, never the id, which a restored D1 may hand out again. */
  ledgerKey: text('ledger_key').unique(),
  /**
   * Soft bounces (a full mailbox, a server that is down) suppress an address once it has this many within
   * softBounceDays (src/modules/bounce/soft-bounces.ts); a hard bounce or a complaint suppresses at once.
   */
  softBounceLimit: integer('soft_bounce_limit').notNull().default(3),
  softBounceDays: integer('soft_bounce_days').notNull().default(30),
  /**
   * Limits of the organisation's API keys (src/modules/api-key/rate-limit.ts), set by the operator: each key's
   * requests per second and messages per hour, and the same for all its keys together.
   */
  apiKeyRequestsPerSecond: integer('api_key_requests_per_second').notNull().default(20),
  apiKeyMessagesPerHour: integer('api_key_messages_per_hour').notNull().default(10000),
  apiOrgRequestsPerSecond: integer('api_org_requests_per_second').notNull().default(100),
  apiOrgMessagesPerHour: integer('api_org_messages_per_hour').notNull().default(50000),
  ...timestamps,
});

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The login: an email address or, in simple-sign mode, a username. Stored lower-cased. */
    username: text('username').notNull(),
    email: text('email'),
    /** `scrypt$N$r$p$salt$hash`, null when the user signs in only through a social account. */
    passwordHash: text('password_hash'),
    /** True from payment until the emailed sign-up completion link is used; such a user cannot sign in yet. */
    registrationPending: integer('registration_pending', { mode: 'boolean' }).notNull().default(false),
    /** The console language the user chose (one of src/shared/languages.ts), kept for their next session; null: never chosen. */
    language: text('language'),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_org_username').on(t.orgId, t.username)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authTypeId: integer('auth_type_id').notNull(),
    /** SHA-256 of the current refresh token; the token itself is never stored. */
    refreshHash: text('refresh_hash').notNull().unique(),
    /** SHA-256 of the token it replaced, to recognise replay of a rotated token. */
    previousRefreshHash: text('previous_refresh_hash'),
    device: text('device'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    expiresAt: text('expires_at').notNull(),
    refreshesAt: text('refreshes_at'),
    revokedAt: text('revoked_at'),
    ...timestamps,
  },
  (t) => [index('sessions_org_user').on(t.orgId, t.userId), index('sessions_previous_refresh').on(t.previousRefreshHash)],
);

export const tags = sqliteTable(
  'tags',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    priority: integer('priority').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tags_org_name').on(t.orgId, t.name),
    index('tags_org_priority').on(t.orgId, t.priority),
    index('tags_org_created').on(t.orgId, t.createdAt),
    index('tags_org_updated').on(t.orgId, t.updatedAt),
  ],
);

export const clientLogs = sqliteTable(
  'client_logs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orgId: integer('org_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: integer('user_id'),
    msg: text('msg').notNull(),
    env: text('env').notNull(),
    level: text('level').notNull(),
    args: text('args', { mode: 'json' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('client_logs_org_created').on(t.orgId, t.createdAt)],
);

/** Fixed-window counters for rate limits and sign-in throttling. Keys embed the organisation. */
export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: integer('window_start').notNull(),
  count: integer('count').notNull(),
  blockedUntil: integer('blocked_until'),
});
