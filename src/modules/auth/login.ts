import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { DUMMY_HASH, verifyPassword } from '../../lib/password';
import { clear, hit, peek, type Limit } from '../../lib/rate-limit';
import { MESSAGES } from '../../shared/messages';

/** Five wrong passwords for one login within 15 minutes refuse that login until the window ends. */
export const LOGIN_FAILURE_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };

const failureKey = (orgId: number, username: string) => `login:${orgId}:${username}`;

function tooManyAttempts(retryAfter: number) {
  return new ApiError(429, 'too_many_attempts', MESSAGES.tooManyAttempts, undefined, { 'Retry-After': String(retryAfter) });
}

/** Checks a login and password within the current organisation; returns the user id or throws 401/429. */
export async function checkCredentials(c: Context<AppEnv>, username: string, password: string): Promise<number> {
  const login = username.trim().toLowerCase();
  const key = failureKey(c.var.org.id, login);
  const state = await peek(c.var.db, key, LOGIN_FAILURE_LIMIT);
  if (state.count >= LOGIN_FAILURE_LIMIT.max) throw tooManyAttempts(state.retryAfter);

  const user = await new TenantScope(c.var.db, users, c.var.org.id).selectWhere(eq(users.username, login)).limit(1);
  const hash = user[0]?.passwordHash;
  // Verify against a dummy hash for unknown logins so the answer takes as long either way.
  const ok = (await verifyPassword(password, hash ?? DUMMY_HASH)) && Boolean(hash);
  if (!ok) {
    const after = await hit(c.var.db, key, LOGIN_FAILURE_LIMIT);
    if (after.count > LOGIN_FAILURE_LIMIT.max) throw tooManyAttempts(after.retryAfter);
    throw new ApiError(401, 'invalid_credentials', MESSAGES.loginFailed);
  }
  await clear(c.var.db, key);
  // Checked after the password, so a wrong password learns nothing about the account.
  if (user[0].registrationPending) throw new ApiError(403, 'registration_incomplete', MESSAGES.registrationIncomplete);
  return user[0].id;
}
