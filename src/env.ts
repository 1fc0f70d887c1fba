import type { BroadcastRunner } from '../durable-objects/broadcast-runner';
import type { OrgHub } from '../durable-objects/org-hub';
import type { QueueMessageBody } from '../queues/messages';

/** Bindings and vars the worker receives (wrangler.toml). */
export interface Env {
  DB: D1Database;
  FILES: R2Bucket;
  ASSETS: Fetcher;
  SEND_QUEUE: Queue<QueueMessageBody>;
  IMPORT_QUEUE: Queue<QueueMessageBody>;
  EVENTS_QUEUE: Queue<QueueMessageBody>;
  BROADCAST: DurableObjectNamespace<BroadcastRunner>;
  ORG_HUB: DurableObjectNamespace<OrgHub>;
  APP_VERSION: string;
  ENVIRONMENT: string;
  ACCESS_TOKEN_TTL_SECONDS: string;
  REFRESH_TOKEN_TTL_SECONDS: string;
  JWT_SECRET: string;
  /** Key ring for secrets at rest and signed links: `<id>:<secret>[,<old id>:<old secret>]` (src/lib/crypto/secret-box.ts). */
  SECRETS_KEY: string;
  /** Scheme and host the organisations' subdomains hang off, for links in messages (https://example.com). */
  PUBLIC_URL: string;
  /** Twilio's API base; the local platform and tests point it at a local Twilio-shaped server. */
  TWILIO_API_BASE?: string;
  /** DNS-over-HTTPS resolver the SMTP connection test asks to tell a bad host from a refused port. */
  DNS_RESOLVER_URL?: string;
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
