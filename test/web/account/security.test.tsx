import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '@shared/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSecurityStatus } from '../../../web/src/features/account/SecurityNotice';
import { renderApp } from '../render-app';
import { CURRENT_PASSWORD, fakeAccountApi } from './fake-account-api';
import { asApi, find } from './shared';

const NEW_PASSWORD = 'Better2@';

const fillPassword = async (values: { current?: string; next: string; repeat: string }) => {
  if (values.current !== undefined) fireEvent.change(await find('password-current'), { target: { value: values.current } });
  fireEvent.change(await find('password-new'), { target: { value: values.next } });
  fireEvent.change(screen.getByTestId('password-repeat'), { target: { value: values.repeat } });
  await act(async () => fireEvent.click(screen.getByTestId('password-form-submit')));
};

const providerRow = async (id: string) => {
  await waitFor(() => expect(screen.getAllByTestId('social-provider').some((row) => row.getAttribute('data-provider') === id)).toBe(true), { timeout: 3000 });
  return screen.getAllByTestId('social-provider').find((row) => row.getAttribute('data-provider') === id)!;
};

const STATE_KEY = 'relay.oauth.state';

beforeEach(() => sessionStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('security: password', () => {
  it('shows the server message when the current password is wrong, and keeps the password', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    await fillPassword({ current: 'Wrong1!x', next: NEW_PASSWORD, repeat: NEW_PASSWORD });
    await waitFor(() => expect(screen.getByTestId('password-form').textContent).toContain(MESSAGES.currentPasswordWrong));
    expect(api.sent('PUT', '/internal-user/5/password')[0].body).toEqual({ current_password: 'Wrong1!x', password: NEW_PASSWORD });
    expect(api.state.password).toBe(CURRENT_PASSWORD);
  });

  it('changes the password with the right current one and clears the form', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    await fillPassword({ current: CURRENT_PASSWORD, next: NEW_PASSWORD, repeat: NEW_PASSWORD });
    await waitFor(() => expect(api.state.password).toBe(NEW_PASSWORD));
    await waitFor(() => expect((screen.getByTestId('password-new') as HTMLInputElement).value).toBe(''));
    expect(screen.queryByTestId('password-form-error')).toBeNull();
  });

  it('checks the repeat and the policy in the browser before sending', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    await fillPassword({ current: CURRENT_PASSWORD, next: NEW_PASSWORD, repeat: 'Other3#x' });
    await waitFor(() => expect(screen.getByTestId('password-form').textContent).toContain(MESSAGES.passwordsMismatch));
    await fillPassword({ current: CURRENT_PASSWORD, next: 'short', repeat: 'short' });
    // One line above the checklist, whose unmet rules turn red; not every rule's message run together.
    await waitFor(() => expect(screen.getByTestId('password-form').textContent).toContain('This password does not meet the rules marked below'));
    expect(screen.getByTestId('password-form').textContent).not.toContain(MESSAGES.passwordDigit);
    // The live checklist follows the typed password.
    expect(screen.getByTestId('password-new-rule-lower').getAttribute('data-ok')).toBe('true');
    expect(screen.getByTestId('password-new-rule-number').getAttribute('data-ok')).toBe('false');
    expect(api.sent('PUT', '/internal-user/5/password')).toHaveLength(0);
  });

  it('creates a password without a current one when the user has none', async () => {
    const api = fakeAccountApi({ hasPassword: false });
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    expect((await find('password-state')).getAttribute('data-has-password')).toBe('false');
    expect(screen.queryByTestId('password-current')).toBeNull();
    expect(screen.queryByTestId('password-remove')).toBeNull();
    await fillPassword({ next: NEW_PASSWORD, repeat: NEW_PASSWORD });
    await waitFor(() => expect(api.state.password).toBe(NEW_PASSWORD));
    expect(api.sent('PUT', '/internal-user/5/password')[0].body).toEqual({ password: NEW_PASSWORD });
    // Now it exists: the form asks for the current password and offers removal.
    await waitFor(() => expect(screen.getByTestId('password-state').getAttribute('data-has-password')).toBe('true'));
    expect(screen.getByTestId('password-current')).toBeTruthy();
  });

  it('shows the last-method refusal when removing the only login method', async () => {
    const api = fakeAccountApi({ lastMethod: true });
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    fireEvent.click(await find('password-remove'));
    // Nothing is sent before the confirmation.
    expect(api.sent('DELETE', '/internal-user/5/password')).toHaveLength(0);
    await act(async () => fireEvent.click(await find('confirm-ok')));
    expect((await find('password-remove-error')).textContent).toBe(MESSAGES.lastLoginMethod);
    expect(api.sent('DELETE', '/internal-user/5/password')).toHaveLength(1);
    expect(screen.getByTestId('password-state').getAttribute('data-has-password')).toBe('true');
  });

  it('removes password access after confirmation when another method remains', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    fireEvent.click(await find('password-remove'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(screen.getByTestId('password-state').getAttribute('data-has-password')).toBe('false'));
    expect(api.state.password).toBeNull();
  });
});

describe('security: social accounts and notices', () => {
  it('reads status, provider and error from the query', () => {
    expect(parseSecurityStatus('?status=social-link&provider=google')).toEqual({ action: 'link', provider: 'google', error: null, state: null });
    expect(parseSecurityStatus('status=social-unlink&provider=github&error=Nope')).toEqual({
      action: 'unlink',
      provider: 'github',
      error: 'Nope',
      state: null,
    });
    expect(parseSecurityStatus('?status=social-link&provider=google&state=abc')).toEqual({ action: 'link', provider: 'google', error: null, state: 'abc' });
    expect(parseSecurityStatus('?status=bogus')).toBeNull();
    expect(parseSecurityStatus('')).toBeNull();
  });

  it('shows a success notice after linking, naming the provider', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/security?status=social-link&provider=google', signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('success');
    await waitFor(() => expect(notice.textContent).toContain('Google'));
  });

  it('shows the error from the query, translated when it is a shared message', async () => {
    const error = encodeURIComponent(MESSAGES.socialAlreadyLinked);
    renderApp(asApi(fakeAccountApi()), { path: `/me/security?status=social-link&provider=github&error=${error}`, signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('error');
    expect(notice.textContent).toContain(MESSAGES.socialAlreadyLinked);
  });

  it('shows no notice without a status', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/security', signedIn: true });
    await providerRow('google');
    expect(screen.queryByTestId('security-notice')).toBeNull();
  });

  it('lists linked and available providers; link asks the server for the provider URL and goes there', async () => {
    const api = fakeAccountApi();
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    const github = await providerRow('github');
    expect(github.getAttribute('data-linked')).toBe('true');
    expect(within(github).getByTestId('social-account').textContent).toBe('ann@github.test');
    const google = await providerRow('google');
    await act(async () => fireEvent.click(within(google).getByTestId('social-link')));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.test/authorize?provider=google&action=link&state=st-google'));
    expect(api.sent('POST', '/social/google/authorize')[0].body).toEqual({ action: 'link' });
    // The tab remembers the state it started, to confirm only its own link.
    expect(sessionStorage.getItem(STATE_KEY)).toBe('st-google');
  });

  it('confirms a link the provider sent back with the state this tab stored, then shows success', async () => {
    const api = fakeAccountApi();
    sessionStorage.setItem(STATE_KEY, 'verified-google');
    renderApp(asApi(api), { path: '/me/security?status=social-link&provider=google&state=verified-google', signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('success');
    await waitFor(() => expect(notice.textContent).toContain('Google'));
    expect(api.sent('POST', '/social/google/link').map((c) => c.body)).toEqual([{ state: 'verified-google' }]);
    expect(window.location.search).toBe('?status=social-link&provider=google');
    expect(sessionStorage.getItem(STATE_KEY)).toBeNull();
    await waitFor(async () => expect((await providerRow('google')).getAttribute('data-linked')).toBe('true'));
  });

  it("shows the server's refusal of the confirmation as the error notice", async () => {
    const api = fakeAccountApi();
    sessionStorage.setItem(STATE_KEY, 'taken-state');
    renderApp(asApi(api), { path: '/me/security?status=social-link&provider=google&state=taken-state', signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('error');
    expect(notice.textContent).toContain(MESSAGES.socialAlreadyLinked);
    expect(api.sent('POST', '/social/google/link')).toHaveLength(1);
    expect(window.location.search).not.toContain('state=');
    expect((await providerRow('google')).getAttribute('data-linked')).toBe('false');
  });

  it('posts nothing when the state is not the one this tab stored (a link someone else started)', async () => {
    const api = fakeAccountApi();
    sessionStorage.setItem(STATE_KEY, 'my-own-state');
    renderApp(asApi(api), { path: '/me/security?status=social-link&provider=google&state=verified-google', signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('error');
    expect(notice.textContent).toContain(MESSAGES.socialForeignState);
    expect(window.location.search).not.toContain('state=');
    expect(sessionStorage.getItem(STATE_KEY)).toBe('my-own-state');
    expect((await providerRow('google')).getAttribute('data-linked')).toBe('false');
    expect(api.sent('POST', '/social/google/link')).toHaveLength(0);
  });

  it('posts nothing when this tab started no link at all', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security?status=social-link&provider=google&state=verified-google', signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('error');
    expect(notice.textContent).toContain(MESSAGES.socialForeignState);
    await providerRow('google');
    expect(api.sent('POST', '/social/google/link')).toHaveLength(0);
  });

  it("shows the provider's error that came back with the state, and posts nothing", async () => {
    const api = fakeAccountApi();
    sessionStorage.setItem(STATE_KEY, 'verified-google');
    const error = encodeURIComponent(MESSAGES.socialDenied);
    renderApp(asApi(api), { path: `/me/security?status=social-link&provider=google&error=${error}&state=verified-google`, signedIn: true });
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('error');
    expect(notice.textContent).toContain(MESSAGES.socialDenied);
    await waitFor(() => expect(window.location.search).not.toContain('state='));
    expect(api.sent('POST', '/social/google/link')).toHaveLength(0);
  });

  it('unlinks after confirmation and returns to the page with the unlink status', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    fireEvent.click(within(await providerRow('github')).getByTestId('social-unlink'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(window.location.search).toBe('?status=social-unlink&provider=github'));
    const notice = await find('security-notice');
    expect(notice.getAttribute('data-kind')).toBe('success');
    await waitFor(async () => expect((await providerRow('github')).getAttribute('data-linked')).toBe('false'));
  });

  it('shows the last-method refusal when unlinking the only way in', async () => {
    const api = fakeAccountApi({ hasPassword: false });
    renderApp(asApi(api), { path: '/me/security', signedIn: true });
    fireEvent.click(within(await providerRow('github')).getByTestId('social-unlink'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    expect((await find('social-error')).textContent).toBe(MESSAGES.lastLoginMethod);
    expect(window.location.search).toBe('');
  });
});

describe('security: account deletion', () => {
  it('asks to type the login, deletes, then signs out to the root', async () => {
    const api = fakeAccountApi();
    const { services } = renderApp(asApi(api), { path: '/me/security', signedIn: true });
    fireEvent.click(await find('delete-account-open'));
    const confirm = await find('delete-account-confirm');
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByTestId('delete-account-login'), { target: { value: 'someone' } });
    expect(confirm.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByTestId('delete-account-login'), { target: { value: 'ann' } });
    await waitFor(() => expect(screen.getByTestId('delete-account-confirm').hasAttribute('disabled')).toBe(false));
    await act(async () => fireEvent.click(screen.getByTestId('delete-account-confirm')));
    await waitFor(() => expect(api.state.deleted).toBe(true));
    expect(api.sent('DELETE', '/internal-user/5')[0].body).toEqual({ confirm: 'ann' });
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(services.session.user()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });
});
