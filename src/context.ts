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
