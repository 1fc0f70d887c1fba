import { MESSAGES } from '../../shared/messages';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { validationFailed } from '../../lib/api-error';
import { deleteR2Prefix, orgFilesPrefix } from '../../lib/r2-prefix';
import { recordActivity } from '../activity-log/record';
import { drainLedgerDeletions } from '../ledger/drain';
import type { UserRow } from './own-user';
import { forgetOrganizations } from '../../middleware/org-cache';

type Ctx = Context<AppEnv>;

/** The 422 message when the typed confirmation is not the user's login. */
export const CONFIRM_MISMATCH = MESSAGES.confirmMismatch;

/**
 * Deletes the user's account, irreversibly: the user row and with it (by cascade) their sessions, codes,
 * API key and social accounts, and their sign-up record (it holds their email and password hash). When they
 * were the organisation's last member the organisation goes too, with all its data and files. `confirm` must
 * repeat the login. One D1 batch: the organisation is removed only when no member is left after this one, so
 * two last members leaving at once cannot leave an organisation without users. Its ledgers are emptied after.
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
  if (organizationDeleted) {
    forgetOrganizations();
    await deleteR2Prefix(c.env.FILES, orgFilesPrefix(orgId));
    // Its ledgers were queued for emptying by the cascade (migration 0013); the housekeeping cron finishes a drain cut short.
    c.executionCtx.waitUntil(drainLedgerDeletions(c.env, c.var.db).catch((error) => console.error('drainLedgerDeletions', error)));
  }
  return { organizationDeleted };
}
