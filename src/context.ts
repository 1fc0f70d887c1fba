import type { Env, Settings } from './env';
import type { Database } from './db/client';

export interface Organization {
  id: number;
  name: string;
  domain: string;
}

export interface AuthContext {
  userId: number;
  /** The session of a console sign-in; null when the request authenticated with an API key. */
  sessionId: string | null;
  authTypeId: number;
  /** Set when the call authenticated with an organisation API key (Authorization: Bearer rk_...). */
  orgKey?: OrgKeyAuth | null;
}
export interface OrgKeyAuth {
  id: number;
  name: string;
  scope: 'send' | 'read' | 'full';
  test: boolean;
  limits: ApiLimits;
}
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
