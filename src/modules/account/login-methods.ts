import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { MESSAGES } from '../../shared/messages';

// The one rule for removing a login method (password access or a linked social account): at least one must
// remain (spec section 4). The check and the removal are ONE statement each, so two removals at the same moment
// (the password and the last link, say) cannot both pass a check made before either was written.

const lastMethod = () => new ApiError(409, 'last_login_method', MESSAGES.lastLoginMethod);

/** SQL: the user ?1 of organisation ?2 has a linked social account other than the one with id ?3 (0 = none). */
const OTHER_LINK = 'EXISTS (SELECT 1 FROM social_accounts WHERE user_id = ?1 AND org_id = ?2 AND id <> ?3)';
/** SQL: the user ?1 of organisation ?2 has username-password access. */
const HAS_PASSWORD = 'EXISTS (SELECT 1 FROM users WHERE id = ?1 AND org_id = ?2 AND password_hash IS NOT NULL)';

/**
 * Removes the user's username-password access when a linked social account remains; 409
 * 'At least one active method must remain.' otherwise. The caller has checked that a password exists.
 */
export async function removePasswordKeepingAMethod(c: Context<AppEnv>, userId: number): Promise<void> {
  const result = await c.env.DB.prepare(
    `UPDATE users SET password_hash = NULL, updated_at = ?4 WHERE id = ?1 AND org_id = ?2 AND password_hash IS NOT NULL AND ${OTHER_LINK}`,
  )
    .bind(userId, c.var.org.id, 0, new Date().toISOString())
    .run();
  if (result.meta.changes === 0) throw lastMethod();
}

/**
 * Deletes one of the user's linked social accounts when password access or another link remains; 409
 * otherwise. The caller has found the account.
 */
export async function unlinkKeepingAMethod(c: Context<AppEnv>, userId: number, accountId: number): Promise<void> {
  const result = await c.env.DB.prepare(`DELETE FROM social_accounts WHERE id = ?3 AND user_id = ?1 AND org_id = ?2 AND (${HAS_PASSWORD} OR ${OTHER_LINK})`)
    .bind(userId, c.var.org.id, accountId)
    .run();
  if (result.meta.changes === 0) throw lastMethod();
}
