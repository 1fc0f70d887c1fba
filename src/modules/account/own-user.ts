import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { notFound } from '../../lib/api-error';
import { parseId } from '../../lib/validate';
import { userIdOf } from '../../middleware/auth';

export type UserRow = typeof users.$inferSelect;

/**
 * The signed-in user's own row, named by the path id. Any other id (another user, another organisation's
 * user, garbage) is a 404: the account area only ever acts on oneself.
 */
export async function ownUser(c: Context<AppEnv>): Promise<UserRow> {
  const id = parseId(c.req.param('id'));
  if (id === null || id !== userIdOf(c)) throw notFound();
  const row = await new TenantScope(c.var.db, users, c.var.org.id).findById(id);
  if (!row) throw notFound();
  return row;
}

/** The address mail for a user goes to: the email, else a login that is an email; null when there is none. */
export function mailAddressOf(user: Pick<UserRow, 'email' | 'username'>): string | null {
  if (user.email) return user.email;
  return user.username.includes('@') ? user.username : null;
}
