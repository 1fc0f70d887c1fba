import { MESSAGES } from '../../shared/messages';
import type { Env } from '../../env';
import { orgUrl } from '../../lib/org-url';
import type { TokenResponse } from '../../shared/contracts/auth';
import { SOCIAL_STATUS, type SocialAction } from '../../shared/contracts/social';

/** Readable errors of a social sign-in or link that went wrong at the provider (shown by the console). */
export const SOCIAL_ERRORS = {
  denied: MESSAGES.socialDenied,
  failed: MESSAGES.socialFailed,
  otherAccountLinked: MESSAGES.socialOtherAccountLinked,
  invalidState: MESSAGES.socialStateInvalid,
} as const;

/**
 * Where a social sign-in ends on the organisation's host: the console's social-login page with the tokens and
 * the state, which the console accepts only when its own browser started this sign-in.
 */
export function loginSuccessUrl(env: Env, orgDomain: string, provider: string, tokens: TokenResponse, state: string): string {
  const query = new URLSearchParams({
    access_token: tokens.access_token,
    expires_in: String(tokens.expires_in),
    auth_type_id: String(tokens.auth_type_id),
    refresh_token: tokens.refresh_token,
    action: 'login',
    provider,
    state,
  });
  return orgUrl(env, orgDomain, `/social-login?${query}`);
}

/**
 * Where a link goes back from the provider (/me/security?status=social-link&provider=..&state=..), with `error`
 * when it failed. The console confirms a verified link with the state (POST /social/{provider}/link).
 */
export function linkResultUrl(env: Env, orgDomain: string, provider: string, state: string, error?: string): string {
  const query = new URLSearchParams({ status: SOCIAL_STATUS.link, provider });
  if (error) query.set('error', error);
  query.set('state', state);
  return orgUrl(env, orgDomain, `/me/security?${query}`);
}

/** The failure page of either action: social-login with the error for a sign-in, account security for a link. */
export function failureUrl(env: Env, orgDomain: string, action: SocialAction, provider: string, error: string, state: string): string {
  if (action === 'link') return linkResultUrl(env, orgDomain, provider, state, error);
  const query = new URLSearchParams({ error, action: 'login', provider, state });
  return orgUrl(env, orgDomain, `/social-login?${query}`);
}
