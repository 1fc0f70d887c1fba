import { MESSAGES } from '../../shared/messages';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
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
 * API key and social accounts, and their sign-up record (it holds their email and password hash). When they
 * were the organisation's last member the organisation goes too, with all its data and files. `confirm` must
 * repeat the login. One D1 batch: the organisation is removed only when no member is left after this one, so
 * two last members leaving at once cannot leave an organisation without users.
 */
export async function deleteAccount(c: Ctx, user: UserRow, confirm: string): Promise<{ organizationDeleted: boolean }> {
  if (confirm.trim().toLowerCase() !== user.username.toLowerCase()) throw validationFailed({ confirm: [CONFIRM_MISMATCH] });
  const orgId = c.var.org.id;
  // Logged before the batch: once the organisation is gone, so is its activity log.
  await recordActivity(c, 'user', user.id, 'delete', [{ field: 'username', previous: user.username, next: null }]);
  const db = c.env.DB;
  const results = await db.batch([
    db.prepare('DELETE FROM signups WHERE user_id = ?1 AND org_id = ?2').bind(user.id, orgId),
    db.prepare('DELETE FROM users WHERE id = ?1 AND org_id = ?2').bind(user.id, orgId),
    db.prepare('DELETE FROM organizations WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM users WHERE org_id = ?1)').bind(orgId),
  ]);
  // D1 counts the rows the cascade removed too, so any change means the organisation went.
  const organizationDeleted = results[2].meta.changes > 0;
  if (organizationDeleted) await deleteR2Prefix(c.env.FILES, orgFilesPrefix(orgId));
  return { organizationDeleted };
}
