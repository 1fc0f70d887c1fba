import { OAuth2Client } from 'arctic';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { socialAccounts, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { AUTH_TYPE_SOCIAL } from '../../shared/contracts/auth';
import { MESSAGES } from '../../shared/messages';
import { recordActivity } from '../activity-log/record';
import { openSession } from '../auth/sessions';
import { providerEndpoints } from './endpoints';
import type { OAuthState } from './oauth-state';
import { fetchProfile, type SocialProfile } from './profile';
import type { ResolvedProvider } from './providers';
import { accountLabel, SOCIAL_ENTITY } from './social-activity';
import { socialAccountsOf } from './social-accounts';
import { failureUrl, linkResultUrl, loginSuccessUrl, SOCIAL_ERRORS } from './social-redirects';

/** Exchanges the code (PKCE verifier from the state) and reads the profile; null when the provider fails. */
async function exchange(provider: ResolvedProvider, code: string, codeVerifier: string): Promise<SocialProfile | null> {
  try {
    const endpoints = await providerEndpoints(provider);
    const client = new OAuth2Client(provider.clientId, provider.clientSecret, provider.redirectUri);
    const tokens = await client.validateAuthorizationCode(endpoints.token, code, codeVerifier);
    return await fetchProfile(provider, endpoints, tokens.accessToken());
  } catch (error) {
    // Everything in here talks to the provider: any failure is the provider's answer, shown as a readable error.
    console.warn(`social ${provider.id}: code exchange or profile failed: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

/** A sign-in: only an identity already linked to a user of this organisation signs in (no linking by email). */
async function completeLogin(c: Context<AppEnv>, provider: ResolvedProvider, profile: SocialProfile, state: OAuthState): Promise<string> {
  const org = c.var.org;
  const accounts = socialAccountsOf(c.var.db, org.id);
  const account = await accounts.bySubject(provider.id, profile.subject);
  if (!account) return failureUrl(c.env, org.domain, 'login', provider.id, MESSAGES.noAccount);
  const user = await new TenantScope(c.var.db, users, org.id).findById(account.userId);
  if (!user) return failureUrl(c.env, org.domain, 'login', provider.id, MESSAGES.noAccount);
  if (user.registrationPending) return failureUrl(c.env, org.domain, 'login', provider.id, MESSAGES.registrationIncomplete);
  await refreshDetails(c, account.id, profile);
  const tokens = await openSession(c, user.id, AUTH_TYPE_SOCIAL, state.device);
  return loginSuccessUrl(c.env, org.domain, provider.id, tokens);
}

/** A link for the user who started it: refused when the identity belongs to someone else. */
async function completeLink(c: Context<AppEnv>, provider: ResolvedProvider, profile: SocialProfile, userId: number): Promise<string> {
  const org = c.var.org;
  const fail = (error: string) => failureUrl(c.env, org.domain, 'link', provider.id, error);
  const accounts = socialAccountsOf(c.var.db, org.id);
  const existing = await accounts.bySubject(provider.id, profile.subject);
  if (existing && existing.userId !== userId) return fail(MESSAGES.socialAlreadyLinked);
  if (existing) {
    await refreshDetails(c, existing.id, profile);
    return linkResultUrl(c.env, org.domain, provider.id);
  }
  if (await accounts.forUserAt(userId, provider.id)) return fail(SOCIAL_ERRORS.otherAccountLinked);
  const [created] = await c.var.db
    .insert(socialAccounts)
    .values({ orgId: org.id, userId, provider: provider.id, subject: profile.subject, email: profile.email, displayName: profile.name })
    .onConflictDoNothing()
    .returning();
  // Lost a race with another link of the same identity (or of this user at this provider).
  if (!created) return fail(MESSAGES.socialAlreadyLinked);
  // The activity log names the person who linked; there is no session on this redirect.
  c.set('auth', { userId, sessionId: null, authTypeId: AUTH_TYPE_SOCIAL });
  await recordActivity(c, SOCIAL_ENTITY, created.id, 'create', [{ field: provider.id, previous: null, next: accountLabel(created) }]);
  return linkResultUrl(c.env, org.domain, provider.id);
}

/** Keeps the email and name shown next to a link current with the provider's profile. */
async function refreshDetails(c: Context<AppEnv>, accountId: number, profile: SocialProfile): Promise<void> {
  await new TenantScope(c.var.db, socialAccounts, c.var.org.id).update(eq(socialAccounts.id, accountId), {
    email: profile.email,
    displayName: profile.name,
    updatedAt: new Date().toISOString(),
  });
}

/**
 * Finishes a social sign-in or link for the organisation of `state` (already set as c.var.org) and answers the
 * URL on that organisation's host the browser goes to next, with the tokens or a readable error.
 */
export async function completeSocial(c: Context<AppEnv>, provider: ResolvedProvider | null, state: OAuthState): Promise<string> {
  const org = c.var.org;
  const action = state.action === 'link' ? 'link' : 'login';
  const fail = (error: string) => failureUrl(c.env, org.domain, action, state.provider, error);
  if (c.req.query('error')) return fail(SOCIAL_ERRORS.denied);
  const code = c.req.query('code');
  if (!provider || !code || code.length > 2048) return fail(SOCIAL_ERRORS.failed);
  const profile = await exchange(provider, code, state.codeVerifier);
  if (!profile) return fail(SOCIAL_ERRORS.failed);
  if (action === 'login') return completeLogin(c, provider, profile, state);
  if (!state.userId) return fail(SOCIAL_ERRORS.failed);
  const user = await new TenantScope(c.var.db, users, org.id).findById(state.userId);
  if (!user) return fail(SOCIAL_ERRORS.failed);
  return completeLink(c, provider, profile, user.id);
}
