import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../render-app';
import { fakeAccountApi } from './fake-account-api';
import { asApi, find } from './shared';

const KEY = { id: 31, name: 'key-abc', note: null, created_at: '2026-10-01T10:00:00.000Z', updated_at: '2026-10-01T10:00:00.000Z' };
const disabled = (el: Element) => el.hasAttribute('disabled') || el.getAttribute('data-disabled') === 'true';
/** True when an input cannot be edited: disabled itself or inside a disabled fieldset. */
const locked = (el: Element) => disabled(el) || Boolean(el.closest('fieldset[disabled]'));

describe('demo mode in the account area', () => {
  it('shows the read-only banner and disables the profile and organisation forms', async () => {
    const api = fakeAccountApi({ demo: true });
    renderApp(asApi(api), { path: '/me/profile', signedIn: true });
    expect((await find('demo-banner')).textContent).toBe('Shared demo: account settings are read-only');
    expect(disabled(screen.getByTestId('profile-form-submit'))).toBe(true);
    expect(locked(screen.getByTestId('profile-name'))).toBe(true);
    expect(locked(screen.getByTestId('profile-login'))).toBe(true);
    // Submitting anyway (Enter) sends nothing.
    await act(async () => fireEvent.submit(screen.getByTestId('profile-form')));
    expect(api.sent('PUT', '/internal-user/5')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('account-nav-organization'));
    expect(locked(await find('organization-name'))).toBe(true);
    expect(disabled(screen.getByTestId('organization-form-submit'))).toBe(true);
    expect(screen.getByTestId('demo-banner')).toBeTruthy();
  });

  it('disables every security action', async () => {
    renderApp(asApi(fakeAccountApi({ demo: true })), { path: '/me/security', signedIn: true });
    expect(await find('demo-banner')).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('social-provider')).toHaveLength(2));
    expect(disabled(screen.getByTestId('social-link'))).toBe(true);
    expect(disabled(screen.getByTestId('social-unlink'))).toBe(true);
    expect(disabled(screen.getByTestId('password-form-submit'))).toBe(true);
    expect(disabled(screen.getByTestId('password-remove'))).toBe(true);
    expect(locked(screen.getByTestId('password-current'))).toBe(true);
    expect(disabled(screen.getByTestId('delete-account-open'))).toBe(true);
  });

  it('disables API key and session actions', async () => {
    renderApp(asApi(fakeAccountApi({ demo: true, apiKeys: [KEY] })), { path: '/me/api', signedIn: true });
    const row = await screen.findByTestId('list-row', undefined, { timeout: 3000 });
    for (const id of ['row-edit', 'row-regenerate', 'row-delete']) expect(disabled(within(row).getByTestId(id)), id).toBe(true);
    expect(within(row).getByTestId('row-edit').getAttribute('href')).toBeNull();

    fireEvent.click(screen.getByTestId('account-nav-session'));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3), { timeout: 3000 });
    expect(disabled(screen.getByTestId('sessions-revoke-selected'))).toBe(true);
    for (const button of screen.getAllByTestId('row-revoke')) expect(disabled(button)).toBe(true);
  });

  it('no banner and enabled forms outside the demo', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/profile', signedIn: true });
    await find('profile-form');
    expect(screen.queryByTestId('demo-banner')).toBeNull();
    expect(locked(screen.getByTestId('profile-name'))).toBe(false);
  });

  it('shows the demo lock message when the server refuses a change', async () => {
    const api = fakeAccountApi({ locked: true });
    renderApp(asApi(api), { path: '/me/organization', signedIn: true });
    fireEvent.change(await find('organization-name'), { target: { value: 'Renamed' } });
    await act(async () => fireEvent.click(screen.getByTestId('organization-form-submit')));
    expect((await find('organization-form-error')).textContent).toBe(MESSAGES.demoLocked);
    expect(api.state.organization.name).toBe('Acme');
  });
});
