import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError, notFound, validationFailed } from '../../lib/api-error';
import { hashPassword, verifyPassword } from '../../lib/password';
import { admitAttempt, clear, type Limit } from '../../lib/rate-limit';
import { MESSAGES } from '../../shared/messages';
import { recordActivity } from '../activity-log/record';
import { removePasswordKeepingAMethod } from './login-methods';
import type { UserRow } from './own-user';
import { revokeUserSessions } from './user-sessions';

type Ctx = Context<AppEnv>;

/** Wrong current passwords allowed per user in 15 minutes before the change is refused for a while. */
export const CURRENT_PASSWORD_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };

const wrongCurrent = () => new ApiError(422, 'current_password_wrong', MESSAGES.currentPasswordWrong, { current_password: [MESSAGES.currentPasswordWrong] });

/** Checks the current password of a user who has one (422 when wrong, 429 after too many wrong tries). */
async function checkCurrentPassword(c: Ctx, user: UserRow, current: string | undefined): Promise<void> {
  if (!user.passwordHash) return;
  if (!current) throw validationFailed({ current_password: [MESSAGES.required] });
  const key = `pwcurrent:${c.var.org.id}:${user.id}`;
  const attempt = await admitAttempt(c.var.db, key, CURRENT_PASSWORD_LIMIT);
  if (!attempt.admitted) {
    throw new ApiError(429, 'too_many_attempts', MESSAGES.rateLimited, undefined, { 'Retry-After': String(attempt.retryAfter) });
  }
  if (!(await verifyPassword(current, user.passwordHash))) throw wrongCurrent();
  await clear(c.var.db, key);
}

/**
 * Changes the password (the current one must be given) or, for a user who signs in only through social
 * accounts, creates username-password access. Every other session of the user ends; this one stays.
 */
export async function setPassword(c: Ctx, user: UserRow, current: string | undefined, password: string, sessionId: string) {
  await checkCurrentPassword(c, user, current);
  const now = new Date().toISOString();
  await new TenantScope(c.var.db, users, c.var.org.id).update(eq(users.id, user.id), { passwordHash: await hashPassword(password), updatedAt: now });
  await revokeUserSessions(c, user.id, { except: sessionId });
  await recordActivity(c, 'password', user.id, user.passwordHash ? 'update' : 'create', [{ field: 'password', previous: null, next: '[changed]' }]);
}

/** Removes username-password access, provided another way to sign in (a linked social account) remains. */
export async function removePassword(c: Ctx, user: UserRow): Promise<void> {
  if (!user.passwordHash) throw notFound();
  await removePasswordKeepingAMethod(c, user.id);
  await recordActivity(c, 'password', user.id, 'delete', [{ field: 'password', previous: '[set]', next: null }]);
}
