import type { BroadcastRunner } from './modules/broadcast/runner';
import type { OrgHub } from './modules/live/org-hub';
import type { OrgLedger } from './modules/ledger/org-ledger';
import type { EventsQueueBody, ImportQueueBody, SendQueueBody, TransactionalQueueBody, WebhooksQueueBody } from './queue-bodies';

/** Bindings and vars the worker receives (wrangler.toml). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  SEND_QUEUE: Queue<SendQueueBody>;
  /** Single messages (transactional sends, test messages): src/modules/transactional. */
  TRANSACTIONAL_QUEUE: Queue<TransactionalQueueBody>;
  IMPORT_QUEUE: Queue<ImportQueueBody>;
  EVENTS_QUEUE: Queue<EventsQueueBody>;
  /** Webhook flights from the ledgers' dispatchers to the delivering consumer (src/modules/webhook). */
  WEBHOOKS_QUEUE: Queue<WebhooksQueueBody>;
  BROADCAST: DurableObjectNamespace<BroadcastRunner>;
  ORG_HUB: DurableObjectNamespace<OrgHub>;
  /** The organisations' ledgers (src/modules/ledger), reached only through the D1 registry. */
  LEDGER: DurableObjectNamespace<OrgLedger>;
  APP_VERSION: string;
  ENVIRONMENT: string;
  ACCESS_TOKEN_TTL_SECONDS: string;
  REFRESH_TOKEN_TTL_SECONDS: string;
  JWT_SECRET: string;
  /** Key ring for secrets at rest and signed links: `<id>:<secret>[,<old id>:<old secret>]` (src/lib/crypto/secret-box.ts). */
  SECRETS_KEY: string;
  /** Scheme and host the organisations' subdomains hang off, for links in messages (https://example.com). */
  PUBLIC_URL: string;
  /**
   * The domain the operator routes to the worker's email handler (Cloudflare Email Routing): every email message's
   * return path becomes a signed address on it, so bounces and spam complaints come back (src/modules/bounce).
   * Unset: messages keep their integration's return path and nothing comes back.
   */
  BOUNCE_DOMAIN?: string;
  /** Twilio's API base; the local platform and tests point it at a local Twilio-shaped server. */
  TWILIO_API_BASE?: string;
  /** The optional live-chat widget (src/modules/chat-widget): its origin and website token; off when unset. */
  CHAT_WIDGET_BASE_URL?: string;
  CHAT_WIDGET_TOKEN?: string;
  /** The console's runtime settings as a JSON object (src/modules/console-settings/settings.ts). */
  CONSOLE_SETTINGS?: string;
  /** How long an isolate sums API request counts before it writes them (ms; default 5000, tests use less). */
  REQUEST_COUNT_FLUSH_MS?: string;
  /** 'off' stops counting API requests (the dashboard's request chart); any other value or unset: counted. */
  REQUEST_COUNTING?: string;
  /** How many matches a filtered list counts before it answers "more than" (default 10,000; tests use less). */
  LIST_TOTAL_CAP?: string;
  /** Days messages stay in D1 before the cron archives them to R2, unless the organisation set its own (default 90). */
  MESSAGE_RETENTION_DAYS?: string;
  /** Recipients of one broadcast on their way at most (src/modules/broadcast/runner.ts; default 10,000). */
  BROADCAST_WINDOW?: string;
  /** Seconds a send claim holds without its heartbeat (src/modules/sending/lease.ts; default 60, fault tests use less). */
  SEND_LEASE_SECONDS?: string;
  /**
   * Only where the send queue loses its messages on a restart (the local platform sets it at every boot, ms since
   * 1970): the boot epoch, before which every queue message is known lost (src/modules/sending/queue-epoch.ts).
   * Unset in production, where the queue keeps them and the lease rules find a dead delivery.
   */
  QUEUE_LOST_BEFORE?: string;
  /** Crash stage only: the consumer's deliveries die once, as a killed isolate's would (src/modules/sending/consumer-death.ts). */
  FAULT_CONSUMER_DIES_AFTER?: string;
  /** DNS-over-HTTPS resolver the SMTP connection test asks to tell a bad host from a refused port. */
  DNS_RESOLVER_URL?: string;
  /**
   * How many times faster the webhooks' durations run (retry schedule, failing day, secret overlap, paused keep:
   * src/modules/webhook/clock.ts); default 1. Benchmarks and tests only.
   */
  WEBHOOK_CLOCK_SCALE?: string;
  /** "true": webhooks may go to http, any port and loopback (local development and tests only; never deployed). */
  WEBHOOKS_ALLOW_LOCAL?: string;

  // --- Hosted forms (issue 39, src/modules/form). Cloudflare Turnstile keeps bots off the sign-up forms.
  /** The Turnstile widget's site key; without it (and the secret) the hosted page shows no challenge and every sign-up takes the tokenless path (tight limits, always double opt-in). */
  TURNSTILE_SITE_KEY?: string;
  /** The widget's secret, for siteverify (a secret: `wrangler secret put TURNSTILE_SECRET_KEY`). */
  TURNSTILE_SECRET_KEY?: string;
  /** Where the widget's script is loaded from (default Cloudflare's; locally the stand-in, scripts/turnstile-stand-in.mjs). */
  TURNSTILE_SCRIPT_URL?: string;
  /** Where tokens are verified (default Cloudflare's siteverify; locally the stand-in). */
  TURNSTILE_VERIFY_URL?: string;
  /** Posts per IP a minute to the hosted forms, counted in memory (wrangler.toml [[ratelimits]]; flood-gate.ts). */
  FORM_FLOOD_GATE?: RateLimit;

  // --- Identity (issue 3). All optional: the local defaults make sign-up, mail and demo work on a fresh machine.
  /** Bearer token of the operator API (/api/v1/operator): pre-registration review, platform settings, demo reset. */
  OPERATOR_TOKEN?: string;
  /** Stripe secret key: sign-up payments go through Stripe Checkout when set, else the built-in test checkout. */
  STRIPE_SECRET_KEY?: string;
  /** Signing secret of the Stripe webhook endpoint (/api/v1/signup/stripe-webhook). */
  STRIPE_WEBHOOK_SECRET?: string;
  /** Amount due at sign-up, in cents (default 2900 = $29.00), and its currency (default usd). */
  SIGNUP_AMOUNT_CENTS?: string;
  SIGNUP_CURRENCY?: string;
  /** The platform's own mail (reset, completion, pre-registration): smtp://user:pass@host:port, smtps:// for TLS. */
  SYSTEM_SMTP_URL?: string;
  /** From address of the platform's own mail, e.g. "Relay <no-reply@example.com>". */
  SYSTEM_MAIL_FROM?: string;
  /** Social sign-in providers: a preset is offered when its client id and secret are set. */
  OAUTH_GITHUB_CLIENT_ID?: string;
  OAUTH_GITHUB_CLIENT_SECRET?: string;
  OAUTH_GOOGLE_CLIENT_ID?: string;
  OAUTH_GOOGLE_CLIENT_SECRET?: string;
  /** A generic OpenID Connect provider: issuer URL (discovery), client id and secret, and the name shown. */
  OAUTH_OIDC_ISSUER?: string;
  OAUTH_OIDC_CLIENT_ID?: string;
  OAUTH_OIDC_CLIENT_SECRET?: string;
  OAUTH_OIDC_NAME?: string;
  /** Hours between resets of the shared demo organisation (spec: reset_length; default 24). */
  DEMO_RESET_HOURS?: string;
}

export interface Settings {
  version: string;
  environment: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  jwtSecret: string;
}

/** Reads and checks the vars once per request; a missing secret is a deployment error, reported plainly. */
export function readSettings(env: Env): Settings {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) {
    throw new Error('JWT_SECRET must be set to at least 32 characters (wrangler secret put JWT_SECRET, or .dev.vars locally)');
  }
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    // Without the webhook's secret paid sign-ups would never become accounts: refuse to run half-configured.
    throw new Error('STRIPE_WEBHOOK_SECRET must be set when STRIPE_SECRET_KEY is (wrangler secret put STRIPE_WEBHOOK_SECRET)');
  }
  return {
    version: env.APP_VERSION || '0.0.0',
    environment: env.ENVIRONMENT || 'production',
    accessTokenTtl: positive(env.ACCESS_TOKEN_TTL_SECONDS, 900),
    refreshTokenTtl: positive(env.REFRESH_TOKEN_TTL_SECONDS, 30 * 24 * 3600),
    jwtSecret: env.JWT_SECRET,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
