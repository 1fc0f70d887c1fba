import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { socialAccounts } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { userIdOf } from '../../middleware/auth';
import { MESSAGES } from '../../shared/messages';
import { recordActivity } from '../activity-log/record';
import { consumeVerifiedLink } from './oauth-state';
import type { SocialProfile } from './profile';
import { accountLabel, SOCIAL_ENTITY } from './social-activity';
import { socialAccountsOf } from './social-accounts';
import { SOCIAL_ERRORS } from './social-redirects';

const alreadyLinked = () => new ApiError(409, 'social_already_linked', MESSAGES.socialAlreadyLinked);

/** Keeps the email and name shown next to a link current with the provider's profile. */
export async function refreshDetails(c: Context<AppEnv>, accountId: number, profile: SocialProfile): Promise<void> {
  await new TenantScope(c.var.db, socialAccounts, c.var.org.id).update(eq(socialAccounts.id, accountId), {
    email: profile.email,
    displayName: profile.name,
    updatedAt: new Date().toISOString(),
  });
}

/**
 * Links the identity the provider confirmed under `state` to the signed-in user (c.var.auth), once. Only a
 * verified, unexpired link of this provider started by this same user counts (else 400 link_invalid): a state
 * handed to someone else links nothing. Refused when the identity belongs to another user, or when the user
 * already linked another account of this provider (409). Linking the same identity again refreshes it.
 */
export async function confirmLink(c: Context<AppEnv>, providerId: string, state: string): Promise<void> {
  const org = c.var.org;
  const userId = userIdOf(c);
  const pending = await consumeVerifiedLink(c.var.db, { state, orgId: org.id, provider: providerId, userId });
  if (!pending) throw new ApiError(400, 'link_invalid', SOCIAL_ERRORS.invalidState);
  const profile: SocialProfile = { subject: pending.subject, email: pending.email, name: pending.displayName };
  const accounts = socialAccountsOf(c.var.db, org.id);
  const existing = await accounts.bySubject(providerId, profile.subject);
  if (existing && existing.userId !== userId) throw alreadyLinked();
  if (existing) {
    await refreshDetails(c, existing.id, profile);
    return;
  }
  if (await accounts.forUserAt(userId, providerId)) throw new ApiError(409, 'conflict', SOCIAL_ERRORS.otherAccountLinked);
  const [created] = await c.var.db
    .insert(socialAccounts)
    .values({ orgId: org.id, userId, provider: providerId, subject: profile.subject, email: profile.email, displayName: profile.name })
    .onConflictDoNothing()
    .returning();
  // Lost a race with another link of the same identity (or of this user at this provider).
  if (!created) throw alreadyLinked();
  await recordActivity(c, SOCIAL_ENTITY, created.id, 'create', [{ field: providerId, previous: null, next: accountLabel(created) }]);
}
