import { MESSAGES } from '../../shared/messages';
import { count, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { organizations, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { recordActivity } from '../activity-log/record';
import type { UserRow } from './own-user';

type Ctx = Context<AppEnv>;

/** The 422 message when the typed confirmation is not the user's login. */
export const CONFIRM_MISMATCH = MESSAGES.confirmMismatch;

/** The R2 folder of everything an organisation stored (import files, template attachments). */
export const orgFilesPrefix = (orgId: number) => `orgs/${orgId}/`;

/** Deletes every R2 object under a prefix, a listing page (at most 1000 keys) at a time. */
export async function deleteR2Prefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, limit: 1000 });
    const keys = page.objects.map((o) => o.key);
    if (keys.length) await bucket.delete(keys);
    deleted += keys.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/**
 * Deletes the user's account, irreversibly: the user row and with it (by cascade) their sessions, codes,
 * API key and social accounts. When they were the organisation's last member the organisation goes too,
 * with all its data and files. `confirm` must repeat the login.
 */
export async function deleteAccount(c: Ctx, user: UserRow, confirm: string): Promise<{ organizationDeleted: boolean }> {
  if (confirm.trim().toLowerCase() !== user.username.toLowerCase()) throw validationFailed({ confirm: [CONFIRM_MISMATCH] });
  const orgId = c.var.org.id;
  const scope = new TenantScope(c.var.db, users, orgId);
  const [{ members }] = await c.var.db.select({ members: count() }).from(users).where(scope.where());
  if (members <= 1) {
    await c.var.db.delete(organizations).where(eq(organizations.id, orgId));
    await deleteR2Prefix(c.env.FILES, orgFilesPrefix(orgId));
    return { organizationDeleted: true };
  }
  await scope.delete(eq(users.id, user.id));
  await recordActivity(c, 'user', user.id, 'delete', [{ field: 'username', previous: user.username, next: null }]);
  return { organizationDeleted: false };
}
