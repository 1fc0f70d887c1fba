import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { DUMMY_HASH, verifyPassword } from '../../lib/password';
import { admitAttempt, clear, type Limit } from '../../lib/rate-limit';
import { isDemoOrganization } from '../demo/demo-info';
import { MESSAGES } from '../../shared/messages';

/** Five wrong passwords for one login within 15 minutes refuse that login until the window ends. */
export const LOGIN_FAILURE_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };

/**
 * Attempts are counted per organisation and login. The shared demo publishes its login, so there they are
 * counted per address as well: otherwise anyone could lock every visitor out of the demo.
 */
function attemptKey(c: Context<AppEnv>, login: string): string {
  const base = `login:${c.var.org.id}:${login}`;
  return isDemoOrganization(c.var.org.domain) ? `${base}:${c.req.header('cf-connecting-ip') ?? c.req.header('x-forwarded-for') ?? ''}` : base;
}

function tooManyAttempts(retryAfter: number) {
  return new ApiError(429, 'too_many_attempts', MESSAGES.tooManyAttempts, undefined, { 'Retry-After': String(retryAfter) });
}

/** Checks a login and password within the current organisation; returns the user id or throws 401/429. */
export async function checkCredentials(c: Context<AppEnv>, username: string, password: string): Promise<number> {
  const login = username.trim().toLowerCase();
  const key = attemptKey(c, login);
  // Counted before the check, so parallel guesses cannot all be checked; a success clears the count.
  const attempt = await admitAttempt(c.var.db, key, LOGIN_FAILURE_LIMIT);
  if (!attempt.admitted) throw tooManyAttempts(attempt.retryAfter);

  const user = await new TenantScope(c.var.db, users, c.var.org.id).selectWhere(eq(users.username, login)).limit(1);
  const hash = user[0]?.passwordHash;
  // Verify against a dummy hash for unknown logins so the answer takes as long either way.
  const ok = (await verifyPassword(password, hash ?? DUMMY_HASH)) && Boolean(hash);
  if (!ok) throw new ApiError(401, 'invalid_credentials', MESSAGES.loginFailed);
  await clear(c.var.db, key);
  // Checked after the password, so a wrong password learns nothing about the account.
  if (user[0].registrationPending) throw new ApiError(403, 'registration_incomplete', MESSAGES.registrationIncomplete);
  return user[0].id;
}
