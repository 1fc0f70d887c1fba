import { eq, gt, isNull } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { sessions } from '../db/schema';
import { TenantScope } from '../db/tenant-scope';
import { unauthorized } from '../lib/api-error';
import { verifyAccessToken } from '../lib/tokens';
import { MESSAGES } from '../shared/messages';

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

/**
 * Requires a valid access token for this organisation whose session is still live (so logout and
 * revocation take effect at once, not when the token expires).
 */
export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization')) ?? webSocketToken(c.req.raw);
  if (!token) throw unauthorized();
  const claims = await verifyAccessToken(token, c.var.settings.jwtSecret);
  if (!claims || claims.org !== c.var.org.id) throw unauthorized(MESSAGES.sessionExpired);
  const scope = new TenantScope(c.var.db, sessions, c.var.org.id);
  const [session] = await c.var.db
    .select({ id: sessions.id, userId: sessions.userId, authTypeId: sessions.authTypeId })
    .from(sessions)
    .where(scope.where(eq(sessions.id, claims.sid), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date().toISOString())))
    .limit(1);
  if (!session || String(session.userId) !== claims.sub) throw unauthorized(MESSAGES.sessionExpired);
  c.set('auth', { userId: session.userId, sessionId: session.id, authTypeId: session.authTypeId });
  await next();
});

