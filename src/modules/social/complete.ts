import { OAuth2Client } from 'arctic';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { AUTH_TYPE_SOCIAL } from '../../shared/contracts/auth';
import { MESSAGES } from '../../shared/messages';
import { openSession } from '../auth/sessions';
import { providerEndpoints } from './endpoints';
import { refreshDetails } from './link';
import { saveVerifiedLink, type OAuthState } from './oauth-state';
import { fetchProfile, type SocialProfile } from './profile';
import type { ResolvedProvider } from './providers';
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
async function completeLogin(c: Context<AppEnv>, provider: ResolvedProvider, profile: SocialProfile, saved: OAuthState, state: string): Promise<string> {
  const org = c.var.org;
  const fail = (error: string) => failureUrl(c.env, org.domain, 'login', provider.id, error, state);
  const accounts = socialAccountsOf(c.var.db, org.id);
  const account = await accounts.bySubject(provider.id, profile.subject);
  if (!account) return fail(MESSAGES.noAccount);
  const user = await new TenantScope(c.var.db, users, org.id).findById(account.userId);
  if (!user) return fail(MESSAGES.noAccount);
  if (user.registrationPending) return fail(MESSAGES.registrationIncomplete);
  await refreshDetails(c, account.id, profile);
  const tokens = await openSession(c, user.id, AUTH_TYPE_SOCIAL, saved.device);
  return loginSuccessUrl(c.env, org.domain, provider.id, tokens, state);
}

/**
 * Finishes the provider's part of a social sign-in or link for the organisation of the saved state (already set
 * as c.var.org) and answers the URL on that organisation's host the browser goes to next. A sign-in carries the
 * tokens; a link links nothing yet: the confirmed identity waits under the state for the console of the browser
 * that started it (POST /social/{provider}/link with the user's session). Errors are readable texts.
 */
export async function completeSocial(c: Context<AppEnv>, provider: ResolvedProvider | null, saved: OAuthState, state: string): Promise<string> {
  const org = c.var.org;
  const action = saved.action === 'link' ? 'link' : 'login';
  const fail = (error: string) => failureUrl(c.env, org.domain, action, saved.provider, error, state);
  if (c.req.query('error')) return fail(SOCIAL_ERRORS.denied);
  const code = c.req.query('code');
  if (!provider || !code || code.length > 2048) return fail(SOCIAL_ERRORS.failed);
  const profile = await exchange(provider, code, saved.codeVerifier);
  if (!profile) return fail(SOCIAL_ERRORS.failed);
  if (action === 'login') return completeLogin(c, provider, profile, saved, state);
  if (!saved.userId) return fail(SOCIAL_ERRORS.failed);
  const user = await new TenantScope(c.var.db, users, org.id).findById(saved.userId);
  if (!user) return fail(SOCIAL_ERRORS.failed);
  await saveVerifiedLink(c.var.db, state, saved, profile);
  return linkResultUrl(c.env, org.domain, provider.id, state);
}
