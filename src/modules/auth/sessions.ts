import { eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { sessions } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { unauthorized } from '../../lib/api-error';
import { randomToken, sha256Hex, signAccessToken } from '../../lib/tokens';
import type { TokenResponse } from '../../shared/contracts/auth';
import { MESSAGES } from '../../shared/messages';

const clip = (value: string | undefined, max: number) => (value ? value.slice(0, max) : null);
const isoIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toISOString();

async function issueAccessToken(c: Context<AppEnv>, userId: number, sessionId: string): Promise<string> {
  const { jwtSecret, accessTokenTtl } = c.var.settings;
  return signAccessToken({ sub: String(userId), org: c.var.org.id, sid: sessionId }, jwtSecret, accessTokenTtl);
}

/**
 * Opens a session for a user who has just proved who they are, and returns its first token pair. `device`
 * overrides the X-DEVICE header (a social sign-in ends on a redirect that carries none: it was kept with the state).
 */
export async function openSession(c: Context<AppEnv>, userId: number, authTypeId: number, device?: string | null): Promise<TokenResponse> {
  const refreshToken = randomToken();
  const id = crypto.randomUUID();
  await new TenantScope(c.var.db, sessions, c.var.org.id).insert({
    id,
    userId,
    authTypeId,
    refreshHash: await sha256Hex(refreshToken),
    device: clip(device ?? c.req.header('x-device'), 300),
    ip: clip(c.req.header('cf-connecting-ip') ?? c.req.header('x-forwarded-for'), 64),
    userAgent: clip(c.req.header('user-agent'), 500),
    expiresAt: isoIn(c.var.settings.refreshTokenTtl),
  });
  return {
    access_token: await issueAccessToken(c, userId, id),
    refresh_token: refreshToken,
    expires_in: c.var.settings.accessTokenTtl,
    auth_type_id: authTypeId,
  };
}

/** The refresh token of a refresh call: `x-refresh`, or else the bearer of the Authorization header. */
export function refreshTokenOf(c: Context<AppEnv>): string | null {
  const header = c.req.header('x-refresh')?.trim();
  if (header) return header;
  const match = /^Bearer\s+(\S+)$/i.exec(c.req.header('authorization') ?? '');
  return match ? match[1] : null;
}

/**
 * Exchanges a refresh token for a new pair and rotates it. Presenting a token that was already rotated
 * means it leaked or was replayed: the whole session is revoked.
 */
export async function rotateSession(c: Context<AppEnv>, refreshToken: string): Promise<TokenResponse> {
  const scope = new TenantScope(c.var.db, sessions, c.var.org.id);
  const oldHash = await sha256Hex(refreshToken);
  const now = new Date().toISOString();
  const next = randomToken();
  const [rotated] = await c.var.db
    .update(sessions)
    .set({ refreshHash: await sha256Hex(next), previousRefreshHash: oldHash, refreshesAt: now, updatedAt: now })
    .where(scope.where(eq(sessions.refreshHash, oldHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .returning({ id: sessions.id, userId: sessions.userId, authTypeId: sessions.authTypeId });
  if (!rotated) {
    await c.var.db
      .update(sessions)
      .set({ revokedAt: now, updatedAt: now })
      .where(scope.where(eq(sessions.previousRefreshHash, oldHash), isNull(sessions.revokedAt)));
    throw unauthorized(MESSAGES.sessionExpired);
  }
  return {
    access_token: await issueAccessToken(c, rotated.userId, rotated.id),
    refresh_token: next,
    expires_in: c.var.settings.accessTokenTtl,
    auth_type_id: rotated.authTypeId,
  };
}

/** Ends a session (logout). */
export async function revokeSession(c: Context<AppEnv>, sessionId: string): Promise<void> {
  const now = new Date().toISOString();
  await c.var.db
    .update(sessions)
    .set({ revokedAt: now, updatedAt: now })
    .where(new TenantScope(c.var.db, sessions, c.var.org.id).where(eq(sessions.id, sessionId)));
}

/** Housekeeping for the cron: drops sessions that expired or were revoked over a day ago (all organisations). */
export async function pruneSessions(db: AppEnv['Variables']['db']): Promise<void> {
  const dayAgo = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
  await db.delete(sessions).where(or(lt(sessions.expiresAt, dayAgo), lt(sessions.revokedAt, dayAgo)));
}
