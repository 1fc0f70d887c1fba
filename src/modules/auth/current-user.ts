import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { unauthorized } from '../../lib/api-error';
import { userIdOf } from '../../middleware/auth';
import type { CurrentUser } from '../../shared/contracts/auth';
import { isLanguage } from '../../shared/languages';

/** The signed-in user with their organisation, as /internal-user/me and /init/user return it. */
export async function loadCurrentUser(c: Context<AppEnv>): Promise<CurrentUser> {
  const row = await new TenantScope(c.var.db, users, c.var.org.id).findById(userIdOf(c));
  if (!row) throw unauthorized();
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    email: row.email,
    has_password: Boolean(row.passwordHash),
    language: isLanguage(row.language) ? row.language : null,
    organization: c.var.org,
  };
}
