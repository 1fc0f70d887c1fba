import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { oneTimeCodes, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { orgUrl } from '../../lib/org-url';
import { hashPassword } from '../../lib/password';
import { hit, type Limit } from '../../lib/rate-limit';
import { randomToken, sha256Hex } from '../../lib/tokens';
import { MESSAGES } from '../../shared/messages';
import { recordActivity } from '../activity-log/record';
import { queueSystemMail } from '../system-mail/queue-mail';
import { mailAddressOf } from './own-user';
import { revokeUserSessions } from './user-sessions';

type Ctx = Context<AppEnv>;

export const PASSWORD_RESET = 'password_reset';
/** How long an emailed reset link works. */
export const RESET_CODE_TTL_SECONDS = 3600;
/** At most five reset mails per address an hour; past that the answer is the same, but nothing is sent. */
export const RESET_MAIL_LIMIT: Limit = { max: 5, windowSeconds: 3600 };

const linkInvalid = () => new ApiError(400, 'link_invalid', MESSAGES.resetLinkInvalid);

/**
 * Handles a "forgot password" request. The caller always gets the same generic answer, whether or not the
 * account exists or the limit was reached, so the form cannot be used to find out who has an account: the
 * request is counted at once, and the lookup, code and mail happen after the answer (waitUntil), so the time
 * the answer takes does not depend on the account either.
 */
export async function requestPasswordReset(c: Ctx, rawLogin: string): Promise<void> {
  const login = rawLogin.trim().toLowerCase();
  const counted = await hit(c.var.db, `pwremind:${c.var.org.id}:${login}`, RESET_MAIL_LIMIT);
  if (counted.count > RESET_MAIL_LIMIT.max) return;
  c.executionCtx.waitUntil(
    mailResetLink(c, login).catch((error) => {
      console.error(JSON.stringify({ level: 'error', request_id: c.var.requestId, error: `password reset mail: ${String(error)}` }));
    }),
  );
}

/** Mails a reset link to the user with this login or email, when there is one that may sign in. */
async function mailResetLink(c: Ctx, login: string): Promise<void> {
  const [user] = await c.var.db
    .select({ id: users.id, name: users.name, username: users.username, email: users.email, pending: users.registrationPending })
    .from(users)
    .where(new TenantScope(c.var.db, users, c.var.org.id).where(or(eq(users.username, login), sql`lower(${users.email}) = ${login}`)))
    .limit(1);
  if (!user || user.pending) return;
  const to = mailAddressOf(user);
  if (!to) return;
  const code = randomToken();
  await new TenantScope(c.var.db, oneTimeCodes, c.var.org.id).insert({
    userId: user.id,
    purpose: PASSWORD_RESET,
    codeHash: await sha256Hex(code),
    expiresAt: new Date(Date.now() + RESET_CODE_TTL_SECONDS * 1000).toISOString(),
  });
  const link = orgUrl(c.env, c.var.org.domain, `/password-reset?code=${encodeURIComponent(code)}`);
  await queueSystemMail(c.env, c.var.db, {
    to,
    orgId: c.var.org.id,
    subject: `Reset your ${c.var.org.name} password`,
    text: [
      `Hello ${user.name},`,
      '',
      `Someone (hopefully you) asked to reset the password of ${user.username} in ${c.var.org.name}.`,
      `Open this link within an hour to choose a new password:`,
      link,
      '',
      'If you did not ask for this, ignore this mail: your password stays as it is.',
    ].join('\n'),
  });
}

/**
 * Sets a new password from an emailed reset code: the code must be this organisation's, unused, unexpired and
 * meant for password reset. The code is used up, and every session of the user ends.
 */
export async function resetPassword(c: Ctx, code: string, password: string): Promise<void> {
  const now = new Date().toISOString();
  const scope = new TenantScope(c.var.db, oneTimeCodes, c.var.org.id);
  // Claiming the code and checking it is one statement, so two requests cannot both use it.
  const [claimed] = await c.var.db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(
      scope.where(
        eq(oneTimeCodes.codeHash, await sha256Hex(code)),
        eq(oneTimeCodes.purpose, PASSWORD_RESET),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, now),
      ),
    )
    .returning({ userId: oneTimeCodes.userId });
  if (!claimed) throw linkInvalid();
  const passwordHash = await hashPassword(password);
  const [user] = await new TenantScope(c.var.db, users, c.var.org.id).update(eq(users.id, claimed.userId), { passwordHash, updatedAt: now });
  if (!user) throw linkInvalid();
  // Any other reset link sent before is void now too.
  await c.var.db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(scope.where(and(eq(oneTimeCodes.userId, user.id), eq(oneTimeCodes.purpose, PASSWORD_RESET), isNull(oneTimeCodes.usedAt))));
  await revokeUserSessions(c, user.id);
  // A guest made this change: the row names no user (recordActivity reads the signed-in one).
  await recordActivity(c, 'password', user.id, 'update', [{ field: 'password', previous: null, next: '[changed]' }]);
}
