// The OAuth state of the social sign-in or link this browser tab started. The provider's callback hands the
// state back; the console goes on only when it is the one it stored, so a callback URL someone else started
// (their sign-in, their link) is refused here (login and link CSRF).

/** The session-storage key of the state: one flow in flight per tab. */
export const OAUTH_STATE_KEY = 'relay.oauth.state';

function tabStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Blocked storage: no flow can be confirmed, which fails safe.
    return null;
  }
}

/** Stores the `state` query parameter of the provider URL about to be opened (before navigating there). */
export function rememberOAuthState(providerUrl: string): void {
  let state: string | null = null;
  try {
    state = new URL(providerUrl).searchParams.get('state');
  } catch {
    state = null;
  }
  const storage = tabStorage();
  if (!storage) return;
  if (state) storage.setItem(OAUTH_STATE_KEY, state);
  else storage.removeItem(OAUTH_STATE_KEY);
}

/**
 * Whether `state` is the one this tab stored; a match is used up (removed), a mismatch leaves the stored one for
 * the flow this tab really started.
 */
export function takeOAuthState(state: string | null): boolean {
  const storage = tabStorage();
  const stored = storage?.getItem(OAUTH_STATE_KEY) ?? null;
  if (!storage || !stored || !state || stored !== state) return false;
  storage.removeItem(OAUTH_STATE_KEY);
  return true;
}
