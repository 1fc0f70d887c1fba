import { MESSAGES } from '@shared/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { identityApi } from '../identity-api';
import { renderIdentity } from '../render-identity';

const byTestId = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const type = async (id: string, value: string) => fireEvent.change(await byTestId(id), { target: { value } });
const rules = () =>
  Object.fromEntries(
    screen.getAllByTestId(/^password-reset-password-rule-/).map((el) => [el.dataset.testid!.replace('password-reset-password-rule-', ''), el.dataset.ok]),
  );
let assign: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
  sessionStorage.clear();
});
afterEach(() => {
  assign.mockRestore();
});

const STATE_KEY = 'relay.oauth.state';
const TOKENS = 'access_token=url-access&refresh_token=url-refresh&expires_in=900&auth_type_id=3&action=login&provider=google';

describe('password checklist', () => {
  it('reflects each rule of the policy as the password is typed', async () => {
    renderIdentity(identityApi(), '/password-reset?code=good-code');
    await byTestId('password-reset-password-checklist');
    expect(rules()).toEqual({ min_length: 'false', upper: 'false', lower: 'false', number: 'false', special: 'false' });
    await type('password-reset-password', 'abc');
    expect(rules()).toEqual({ min_length: 'false', upper: 'false', lower: 'true', number: 'false', special: 'false' });
    await type('password-reset-password', 'ABCDEFG');
    expect(rules()).toEqual({ min_length: 'true', upper: 'true', lower: 'false', number: 'false', special: 'false' });
    await type('password-reset-password', 'a1#');
    expect(rules()).toEqual({ min_length: 'false', upper: 'false', lower: 'true', number: 'true', special: 'true' });
    await type('password-reset-password', 'Secret1!');
    expect(Object.values(rules()).every((ok) => ok === 'true')).toBe(true);
    expect((await byTestId('password-reset-password-rule-special')).textContent).toBe('One of the special characters !=@-+#$%^&*{}_');
    expect((await byTestId('password-reset-password-rule-min_length')).textContent).toBe('At least 6 characters');
  });

  it('translates the rules', async () => {
    renderIdentity(identityApi(), '/password-reset?code=good-code', 'de');
    expect((await byTestId('password-reset-password-rule-upper')).textContent).toBe('Ein Großbuchstabe');
  });
});

describe('forgot and reset password', () => {
  it('is linked from the password tab and shows the generic answer', async () => {
    const api = identityApi();
    renderIdentity(api, '/');
    fireEvent.click(await byTestId('signin-forgot-password'));
    await byTestId('forgot-password');
    expect(window.location.pathname).toBe('/forgot-password');
    fireEvent.click(await byTestId('forgot-password-submit'));
    expect(await screen.findByText(MESSAGES.required)).toBeTruthy();
    await type('forgot-password-email', 'nobody@x.test');
    fireEvent.click(await byTestId('forgot-password-submit'));
    expect((await byTestId('forgot-password-sent')).textContent).toBe(MESSAGES.resetRequested);
    expect(api.callsTo('/internal-user/password-remind').at(-1)!.body).toEqual({ email: 'nobody@x.test' });
  });

  it('says the link is invalid when the code is missing, without asking the server', async () => {
    const api = identityApi();
    renderIdentity(api, '/password-reset');
    expect((await byTestId('password-reset-invalid')).textContent).toBe(MESSAGES.resetLinkInvalid);
    expect((await byTestId('password-reset-request-new')).getAttribute('href')).toBe('/forgot-password');
    expect(api.callsTo('/internal-user/password-reset')).toHaveLength(0);
  });

  it('says the link is invalid or expired when the server rejects the code', async () => {
    renderIdentity(identityApi(), '/password-reset?code=forged');
    await type('password-reset-password', 'Secret1!');
    await type('password-reset-repeat', 'Secret1!');
    fireEvent.click(await byTestId('password-reset-submit'));
    expect((await byTestId('password-reset-invalid')).textContent).toBe(MESSAGES.resetLinkInvalid);
  });

  it('checks the repeated password, shows the policy message of a 422, then succeeds', async () => {
    const api = identityApi();
    renderIdentity(api, '/password-reset?code=good-code');
    await type('password-reset-password', 'weakpass');
    // The one-time code leaves the address bar once read, and the page still uses it.
    expect(window.location.search).toBe('');
    await type('password-reset-repeat', 'weakpas');
    expect(await screen.findByText(MESSAGES.passwordsMismatch)).toBeTruthy();
    fireEvent.click(await byTestId('password-reset-submit'));
    expect(api.callsTo('/internal-user/password-reset')).toHaveLength(0);
    await type('password-reset-repeat', 'weakpass');
    fireEvent.click(await byTestId('password-reset-submit'));
    // The 422's rule messages are not repeated above the checklist: one line, and the unmet rules marked.
    expect(await screen.findByText('This password does not meet the rules marked below')).toBeTruthy();
    expect(screen.queryByText(MESSAGES.passwordUppercase)).toBeNull();
    await type('password-reset-password', 'Secret1!');
    await type('password-reset-repeat', 'Secret1!');
    fireEvent.click(await byTestId('password-reset-submit'));
    expect((await byTestId('password-reset-done')).textContent).toContain('Your password has been changed');
    expect((await byTestId('password-reset-signin')).getAttribute('href')).toBe('/');
    expect(api.callsTo('/internal-user/password-reset').at(-1)!.body).toEqual({ code: 'good-code', password: 'Secret1!' });
  });
});

describe('social sign-in', () => {
  it('lists the providers on the Social tab and goes to the provider', async () => {
    const api = identityApi({
      socialProviders: [
        { id: 'google', name: 'Google' },
        { id: 'github', name: 'GitHub' },
      ],
    });
    renderIdentity(api);
    fireEvent.click(await byTestId('signin-tab-social'));
    expect((await byTestId('social-login-google')).textContent).toBe('Continue with Google');
    expect((await byTestId('social-login-github')).textContent).toBe('Continue with GitHub');
    fireEvent.click(await byTestId('social-login-github'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://provider.test/github/auth?state=xyz'));
    expect(api.callsTo('/social/github/authorize')[0].body).toEqual({ action: 'login' });
    // The tab remembers the state it started, to accept only its own callback.
    expect(sessionStorage.getItem(STATE_KEY)).toBe('xyz');
  });

  it('says so when no provider is configured', async () => {
    renderIdentity(identityApi());
    fireEvent.click(await byTestId('signin-tab-social'));
    expect((await byTestId('signin-social-none')).textContent).toContain('not set up');
  });

  it('shows the error the provider callback carried', async () => {
    renderIdentity(identityApi(), `/social-login?error=${encodeURIComponent(MESSAGES.socialAlreadyLinked)}&action=login&provider=google`);
    expect((await byTestId('social-login-error')).textContent).toBe(MESSAGES.socialAlreadyLinked);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('accepts the tokens of the sign-in this tab started, rotates the refresh token from the URL at once, clears the URL and goes home', async () => {
    const api = identityApi();
    sessionStorage.setItem(STATE_KEY, 'my-state');
    renderIdentity(api, `/social-login?${TOKENS}&state=my-state`);
    await byTestId('dashboard');
    expect(api.callsTo('/internal-auth/token-refresh')).toHaveLength(1);
    expect(api.callsTo('/internal-auth/logout')).toHaveLength(0);
    expect(localStorage.getItem('refreshToken')).toBe('rotated');
    expect(window.location.pathname).toBe('/');
    expect(window.location.search).toBe('');
    // Used up.
    expect(sessionStorage.getItem(STATE_KEY)).toBeNull();
  });

  it('refuses tokens of a sign-in another browser started, and ends that session with its own token', async () => {
    const api = identityApi();
    sessionStorage.setItem(STATE_KEY, 'my-state');
    renderIdentity(api, `/social-login?${TOKENS}&state=attacker-state`);
    expect((await byTestId('social-login-error')).textContent).toBe(MESSAGES.socialForeignState);
    await waitFor(() => expect(api.callsTo('/internal-auth/logout')).toHaveLength(1));
    expect(api.callsTo('/internal-auth/logout')[0].headers.authorization).toBe('Bearer url-access');
    expect(api.callsTo('/internal-auth/token-refresh')).toHaveLength(0);
    expect(api.callsTo('/internal-user/me')).toHaveLength(0);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(window.location.search).toBe('');
    // The flow this tab really started can still finish.
    expect(sessionStorage.getItem(STATE_KEY)).toBe('my-state');
  });

  it('refuses tokens when this tab started no sign-in, or the state is missing (translated)', async () => {
    const api = identityApi();
    renderIdentity(api, `/social-login?${TOKENS}&state=attacker-state`, 'de');
    expect((await byTestId('social-login-error')).textContent).toBe(
      'Diese Anmeldung oder Verknüpfung wurde nicht in diesem Browser gestartet. Beginnen Sie erneut.',
    );
    await waitFor(() => expect(api.callsTo('/internal-auth/logout')).toHaveLength(1));
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('refuses tokens without a state even when one is stored', async () => {
    const api = identityApi();
    sessionStorage.setItem(STATE_KEY, 'my-state');
    renderIdentity(api, `/social-login?${TOKENS}`);
    expect((await byTestId('social-login-error')).textContent).toBe(MESSAGES.socialForeignState);
    await waitFor(() => expect(api.callsTo('/internal-auth/logout')).toHaveLength(1));
    expect(api.callsTo('/internal-auth/token-refresh')).toHaveLength(0);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('ends the half session when the rotation is refused (a replayed callback)', async () => {
    sessionStorage.setItem(STATE_KEY, 's1');
    renderIdentity(identityApi(), '/social-login?access_token=a&refresh_token=replayed&expires_in=900&auth_type_id=3&state=s1');
    expect((await byTestId('social-login-error')).textContent).toBe('Social sign-in could not be completed.');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });
});

describe('sign-up completion', () => {
  it('signs the new owner in with the emailed code and goes home', async () => {
    const api = identityApi();
    renderIdentity(api, '/sign-complete?code=complete-1');
    await byTestId('dashboard');
    expect(window.location.pathname).toBe('/');
    expect(localStorage.getItem('accessToken')).toBe('acc');
    expect(api.callsTo('/internal-user/sign-complete')[0].body).toEqual({ code: 'complete-1' });
  });

  it('shows the server message for a spent or forged code, and for a missing one', async () => {
    const first = renderIdentity(identityApi(), '/sign-complete?code=used');
    expect((await byTestId('sign-complete-error')).textContent).toBe(MESSAGES.signCompleteInvalid);
    expect(localStorage.getItem('accessToken')).toBeNull();
    first.unmount();
    renderIdentity(identityApi(), '/sign-complete');
    expect((await byTestId('sign-complete-error')).textContent).toBe(MESSAGES.signCompleteInvalid);
  });
});

describe('sign-in card extras and the demo', () => {
  it('links to Become a client on the application URL when sign-up is enabled', async () => {
    const first = renderIdentity(identityApi());
    expect((await byTestId('signin-become-client')).getAttribute('href')).toBe('http://localhost:8787/signup');
    first.unmount();
    renderIdentity(identityApi({ signupEnabled: false }));
    await byTestId('signin-card');
    expect(screen.queryByTestId('signin-become-client')).toBeNull();
  });

  it('shows the demo notice in the demo organisation, and the demo info page', async () => {
    const api = identityApi({ organization: { id: 9, name: 'Demo Organisation', domain: 'demo' }, demo: true });
    renderIdentity(api);
    fireEvent.click(await byTestId('demo-notice-link'));
    await byTestId('demo-info');
    expect((await byTestId('demo-info-login')).textContent).toBe('demo@demo.test');
    expect((await byTestId('demo-info-password')).textContent).toBe('Demo-2026!');
    expect((await byTestId('demo-info-reset')).textContent).toBe('The shared data resets every 6 hours.');
    expect(await byTestId('demo-info-next-reset')).toBeTruthy();
    // A guest finds the way back to the sign-in card.
    fireEvent.click(await byTestId('demo-info-signin'));
    await byTestId('signin-card');
  });

  it('has no demo notice elsewhere, and the info page says it is not the demo', async () => {
    const api = identityApi();
    const first = renderIdentity(api);
    await byTestId('signin-card');
    expect(screen.queryByTestId('demo-notice')).toBeNull();
    first.unmount();
    renderIdentity(api, '/demo-info');
    expect(await byTestId('demo-info-unavailable')).toBeTruthy();
    expect(api.callsTo('/demo')).toHaveLength(0);
  });
});
