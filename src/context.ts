import type { Env, Settings } from './env';
import type { Database } from './db/client';

export interface Organization {
  id: number;
  name: string;
  domain: string;
}

export interface AuthContext {
  /** The signed-in or personal-key user; null when an organisation key made the call. */
  userId: number | null;
  /** The session of a console sign-in; null when the request authenticated with an API key. */
  sessionId: string | null;
  authTypeId: number;
  /** Set when the call authenticated with an organisation API key (Authorization: Bearer rk_...). */
  orgKey: OrgKeyAuth | null;
}

/** The organisation API key a call authenticated with (src/modules/api-key/authenticate.ts). */
export interface OrgKeyAuth {
  id: number;
  name: string;
  scope: 'send' | 'read' | 'full';
  test: boolean;
  limits: ApiLimits;
}

/** The operator's limits for the organisation's API keys (organizations.api_*), as the ledger's buckets use them. */
export interface ApiLimits {
  keyRequestsPerSecond: number;
  keyMessagesPerHour: number;
  orgRequestsPerSecond: number;
  orgMessagesPerHour: number;
}

/** What middleware puts on the Hono context, in the order app.ts runs it. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    settings: Settings;
    db: Database;
    org: Organization;
    auth: AuthContext;
  };
}
