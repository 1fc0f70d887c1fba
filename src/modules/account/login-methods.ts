import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { socialAccounts, users } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { MESSAGES } from '../../shared/messages';

/** The ways a user can sign in: password access and each linked social account. */
export async function loginMethodCount(c: Context<AppEnv>, userId: number): Promise<number> {
  const orgId = c.var.org.id;
  const [user] = await c.var.db
    .select({ hasPassword: users.passwordHash })
    .from(users)
    .where(and(eq(users.orgId, orgId), eq(users.id, userId)))
    .limit(1);
  const linked = await c.var.db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.orgId, orgId), eq(socialAccounts.userId, userId)));
  return (user?.hasPassword ? 1 : 0) + linked.length;
}

/**
 * The one rule for removing a login method (password access or a social account): at least one must remain
 * (spec section 4). Throws 409 'At least one active method must remain.' when the user has only one.
 */
export async function assertAnotherLoginMethodRemains(c: Context<AppEnv>, userId: number): Promise<void> {
  if ((await loginMethodCount(c, userId)) <= 1) throw new ApiError(409, 'last_login_method', MESSAGES.lastLoginMethod);
}
