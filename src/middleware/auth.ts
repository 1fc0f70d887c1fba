import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, AuthContext } from '../context';
import { apiKeys, sessions, users } from '../db/schema';
import { TenantScope } from '../db/tenant-scope';
import { ApiError, unauthorized } from '../lib/api-error';
import { sameDigest, sha256Hex, verifyAccessToken } from '../lib/tokens';
import { API_KEY_HEADER } from '../shared/contracts/account';
import { AUTH_TYPE_API_KEY } from '../shared/contracts/auth';
import { ORG_KEY_MESSAGES } from '../shared/contracts/org-api-key';
import { MESSAGES } from '../shared/messages';
import { authenticateOrgKey, isOrgKeyToken } from '../modules/api-key/authenticate';
import { checkKeyScope } from '../modules/api-key/scopes';

/** The answer to an API-key call on something only a console sign-in may do. */
export const SESSION_REQUIRED_MESSAGE = MESSAGES.sessionRequired;

/** The bearer token of a request, if any. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

/**
 * The access token of a WebSocket upgrade, which browsers cannot give an Authorization header: the
 * `access_token` query parameter, or the Sec-WebSocket-Protocol value after the `access_token` marker.
 * Only upgrade requests may carry a token this way (src/modules/live).
 */
export function webSocketToken(req: Request): string | null {
  if (req.headers.get('upgrade')?.toLowerCase() !== 'websocket') return null;
  const fromQuery = new URL(req.url).searchParams.get('access_token');
  if (fromQuery) return fromQuery;
  const protocols = (req.headers.get('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  const at = protocols.indexOf('access_token');
  return at >= 0 && protocols[at + 1] ? protocols[at + 1] : null;
}

/** Splits `<username>:<key>` at its last colon (keys never hold one); null when either part is missing. */
export function parseApiKeyHeader(header: string | undefined): { username: string; key: string } | null {
  const value = header?.trim() ?? '';
  const at = value.lastIndexOf(':');
  if (at <= 0 || at === value.length - 1 || value.length > 1024) return null;
  return { username: value.slice(0, at).trim().toLowerCase(), key: value.slice(at + 1).trim() };
}

const NO_KEY_HASH = '0'.repeat(64);

/** The user an `X-API-KEY` header proves, within this organisation, or null (unknown user, no key, wrong key). */
async function apiKeyUserId(c: Context<AppEnv>, header: string | undefined): Promise<number | null> {
  const parsed = parseApiKeyHeader(header);
  if (!parsed) return null;
  const orgId = c.var.org.id;
  const [row] = await c.var.db
    .select({ userId: users.id, keyHash: apiKeys.keyHash })
    .from(users)
    .innerJoin(apiKeys, and(eq(apiKeys.userId, users.id), eq(apiKeys.orgId, orgId)))
    .where(and(eq(users.orgId, orgId), eq(users.username, parsed.username), eq(users.registrationPending, false)))
    .limit(1);
  // Hash and compare even when there is no such key, so the answer takes about as long either way.
  const matches = sameDigest(await sha256Hex(parsed.key), row?.keyHash ?? NO_KEY_HASH);
  return row && matches ? row.userId : null;
}

/**
 * Requires a signed-in caller of this organisation: an organisation API key (`Authorization: Bearer rk_...`,
 * told from a JWT by its prefix before anything else: src/modules/api-key), limited and held to its scope here; or a
 * valid access token whose session is still live (so logout and revocation take effect at once); or else a personal
 * API key (`X-API-KEY: <username>:<key>`, the organisation from the host or X-ORG). API-key calls carry no session
 * (sessionId null); organisation-key calls carry no user either (userId null, orgKey set).
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  // Once per request: app.ts mounts it on `/x` and `/x/*`, and Hono's `/x/*` matches `/x` too, so it would otherwise
  // look the caller up twice (and take two of an organisation key's requests-per-second tokens).
  if (c.var.auth) return next();
  const token = bearerToken(c.req.header('authorization')) ?? webSocketToken(c.req.raw);
  if (token && isOrgKeyToken(token)) {
    const auth = await authenticateOrgKey(c, token);
    c.set('auth', auth);
    checkKeyScope(auth.orgKey!, c.req.method, c.req.path);
    return next();
  }
  if (!token) {
    const apiKey = c.req.header(API_KEY_HEADER);
    if (!apiKey) throw unauthorized();
    const userId = await apiKeyUserId(c, apiKey);
    if (userId === null) throw unauthorized();
    c.set('auth', { userId, sessionId: null, authTypeId: AUTH_TYPE_API_KEY, orgKey: null });
    return next();
  }
  c.set('auth', await sessionOfAccessToken(c, token));
  await next();
});

/**
 * The live session an access token proves in this organisation (signature, expiry, organisation, session not
 * revoked or expired, same user); 401 otherwise. Also used where the token arrives in a body (POST /internal-user/me).
 */
export async function sessionOfAccessToken(c: Context<AppEnv>, token: string): Promise<AuthContext> {
  const claims = await verifyAccessToken(token, c.var.settings.jwtSecret);
  if (!claims || claims.org !== c.var.org.id) throw unauthorized(MESSAGES.sessionExpired);
  const scope = new TenantScope(c.var.db, sessions, c.var.org.id);
  const [session] = await c.var.db
    .select({ id: sessions.id, userId: sessions.userId, authTypeId: sessions.authTypeId })
    .from(sessions)
    .where(scope.where(eq(sessions.id, claims.sid), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date().toISOString())))
    .limit(1);
  if (!session || String(session.userId) !== claims.sub) throw unauthorized(MESSAGES.sessionExpired);
  return { userId: session.userId, sessionId: session.id, authTypeId: session.authTypeId, orgKey: null };
}

/**
 * The current console session's id. Managing the account (and logging out) needs a real sign-in: an API-key
 * call is refused with 403 rather than letting a leaked key change the password or mint new keys.
 */
export function sessionIdOf(c: Context<AppEnv>): string {
  const id = c.var.auth?.sessionId;
  if (!id) throw new ApiError(403, 'forbidden', SESSION_REQUIRED_MESSAGE);
  return id;
}

/**
 * The user making the call. An organisation key has none, so a call that needs a person (their profile, their
 * sign-in methods, the console's init) is refused with 403 when a key makes it.
 */
export function userIdOf(c: Context<AppEnv>): number {
  const id = c.var.auth?.userId;
  if (id === null || id === undefined) throw new ApiError(403, 'forbidden', ORG_KEY_MESSAGES.userRequired);
  return id;
}

/** Middleware form of sessionIdOf: after requireAuth, refuses API-key calls with 403. */
export const requireSession = createMiddleware<AppEnv>(async (c, next) => {
  sessionIdOf(c);
  await next();
});
