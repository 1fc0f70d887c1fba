import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ActivityLogEntry } from '@shared/contracts/activity-log';
import type { OrgKeyRow } from '@shared/contracts/org-api-key';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../render-app';
import { fakeAccountApi } from './fake-account-api';
import { asApi, find } from './shared';

// The organisation's API keys screen (issue 36): the list, the create dialog that shows the key once, revoking with
// confirmation, and the activity log naming a key where no user made a change.

const LIVE: OrgKeyRow = {
  id: 7,
  name: 'Web shop',
  scope: 'send',
  test: false,
  prefix: 'rk_live_AbCdEf',
  created_by: { id: 1, name: 'Ann Admin' },
  last_used_at: '2026-11-01T12:00:00.000Z',
  revoked_at: null,
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-10-01T10:00:00.000Z',
};
const REVOKED: OrgKeyRow = {
  ...LIVE,
  id: 5,
  name: 'Old export',
  scope: 'read',
  test: true,
  prefix: 'rk_test_ZyXwVu',
  last_used_at: null,
  revoked_at: '2026-10-20T08:00:00.000Z',
};

const rowOf = async (id: number) => {
  await waitFor(() => expect(screen.getAllByTestId('list-row').length).toBeGreaterThan(0), { timeout: 3000 });
  return screen.getAllByTestId('list-row').find((row) => row.getAttribute('data-id') === String(id))!;
};
const cell = (row: HTMLElement, column: string) => row.querySelector(`[data-column="${column}"]`)?.textContent;

describe('organisation API keys screen', () => {
  it('is in the account area beside the organisation, and lists keys with scope, mode, prefix, creator and last use', async () => {
    renderApp(asApi(fakeAccountApi({ orgKeys: [LIVE, REVOKED] })), { path: '/me/organization-keys', signedIn: true });
    expect((await find('account-nav-organization-keys')).getAttribute('href')).toBe('/me/organization-keys');
    const live = await rowOf(7);
    expect(within(live).getByText('Web shop')).toBeTruthy();
    expect(cell(live, 'prefix')).toBe('rk_live_AbCdEf…');
    expect(cell(live, 'scope')).toBe('Send only');
    expect(cell(live, 'mode')).toBe('Live');
    expect(cell(live, 'created_by')).toBe('by Ann Admin');
    expect(cell(live, 'last_used_at')).not.toBe('Never');
    expect(within(live).getByTestId('org-key-revoke-7')).toBeTruthy();

    const revoked = await rowOf(5);
    expect(revoked.getAttribute('data-revoked')).toBe('true');
    expect(cell(revoked, 'mode')).toBe('Test');
    expect(cell(revoked, 'scope')).toBe('Read only');
    expect(cell(revoked, 'last_used_at')).toBe('Never');
    expect(within(revoked).getByTestId('org-key-revoked')).toBeTruthy();
    expect(within(revoked).queryByTestId('org-key-revoke-5')).toBeNull();
  });

  it('shows one card per key on a phone, each with its details and its revoke button', async () => {
    const happy = (window as unknown as { happyDOM: { setViewport: (v: { width: number; height: number }) => void } }).happyDOM;
    happy.setViewport({ width: 390, height: 844 });
    try {
      renderApp(asApi(fakeAccountApi({ orgKeys: [LIVE, REVOKED] })), { path: '/me/organization-keys', signedIn: true });
      expect(await find('org-key-cards')).toBeTruthy();
      expect(screen.queryByTestId('list-table')).toBeNull();
      const live = await rowOf(7);
      expect([cell(live, 'prefix'), cell(live, 'scope'), cell(live, 'mode'), cell(live, 'created_by')]).toEqual([
        'rk_live_AbCdEf…',
        'Send only',
        'Live',
        'by Ann Admin',
      ]);
      expect(within(live).getByTestId('org-key-revoke-7')).toBeTruthy();
      expect(within(await rowOf(5)).queryByTestId('org-key-revoke-5')).toBeNull();
    } finally {
      happy.setViewport({ width: 1024, height: 768 });
    }
  });

  it('says so when there is no key yet', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/organization-keys', signedIn: true });
    expect((await find('list-empty')).textContent).toBe('No organisation API keys yet.');
  });

  it('creates a key and shows it once with a copy button and the warning; closed, the key is gone from the page', async () => {
    const api = fakeAccountApi({ orgKeys: [LIVE] });
    renderApp(asApi(api), { path: '/me/organization-keys', signedIn: true });
    fireEvent.click(await find('org-key-create'));
    fireEvent.change(await find('org-key-name'), { target: { value: '  Reporting  ' } });
    fireEvent.change(screen.getByTestId('org-key-scope'), { target: { value: 'read' } });
    fireEvent.click(screen.getByTestId('org-key-test'));
    await act(async () => fireEvent.click(screen.getByTestId('org-key-submit')));

    const secret = (await find('org-key-secret')).textContent!;
    expect(secret).toMatch(/^rk_test_Key1xx/);
    expect(api.sent('POST', '/organization-api-key').map((c) => c.body)).toEqual([{ name: 'Reporting', scope: 'read', test: true }]);
    expect(screen.getByTestId('org-key-once').textContent).toContain('will not be shown again');
    expect(screen.getByTestId('org-key-copy')).toBeTruthy();
    // The list behind the dialog has the new key, without its secret.
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2));
    const listed = await rowOf(101);
    expect(cell(listed, 'mode')).toBe('Test');
    expect(listed.textContent).not.toContain(secret);

    fireEvent.click(screen.getByTestId('org-key-done'));
    await waitFor(() => expect(screen.queryByTestId('org-key-secret')).toBeNull());
    expect(document.body.textContent).not.toContain(secret);
    // Opened again, the dialog is a fresh form, not the old key.
    fireEvent.click(screen.getByTestId('org-key-create'));
    expect(((await find('org-key-name')) as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('org-key-secret')).toBeNull();
  });

  it('in test mode offers only send and read: a full scope falls back to send', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/organization-keys', signedIn: true });
    fireEvent.click(await find('org-key-create'));
    const scope = (await find('org-key-scope')) as HTMLSelectElement;
    expect([...scope.options].map((o) => o.value)).toEqual(['send', 'read', 'full']);
    // Each option is the scope's name; the chosen scope's meaning is the field's description.
    expect([...scope.options].map((o) => o.textContent)).toEqual(['Send only', 'Read only', 'Full access']);
    const hint = () => document.getElementById(scope.getAttribute('aria-describedby')!.split(' ')[0])?.textContent;
    expect(hint()).toBe('only sends messages (POST /send and /send/batch)');
    fireEvent.change(scope, { target: { value: 'full' } });
    expect(scope.value).toBe('full');
    await waitFor(() => expect(hint()).toBe('everything an API key may do, except managing accounts and keys'));
    fireEvent.click(screen.getByTestId('org-key-test'));
    await waitFor(() => expect(scope.value).toBe('send'));
    expect(scope.options[2].disabled).toBe(true);
    expect(scope.options[0].disabled).toBe(false);
  });

  it('asks for a name before sending anything', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/organization-keys', signedIn: true });
    fireEvent.click(await find('org-key-create'));
    await act(async () => fireEvent.click(await find('org-key-submit')));
    await waitFor(() => expect(screen.getByText(MESSAGES.required)).toBeTruthy());
    expect(api.sent('POST', '/organization-api-key')).toHaveLength(0);
  });

  it('revokes only after confirmation; the row stays, marked revoked', async () => {
    const api = fakeAccountApi({ orgKeys: [LIVE] });
    renderApp(asApi(api), { path: '/me/organization-keys', signedIn: true });
    fireEvent.click(within(await rowOf(7)).getByTestId('org-key-revoke-7'));
    expect((await find('confirm-ok')).textContent).toBe('Revoke');
    expect(api.sent('DELETE', '/organization-api-key/7')).toHaveLength(0);
    await act(async () => fireEvent.click(screen.getByTestId('confirm-ok')));
    await waitFor(() => expect(api.sent('DELETE', '/organization-api-key/7')).toHaveLength(1));
    await waitFor(async () => expect((await rowOf(7)).getAttribute('data-revoked')).toBe('true'));
    expect(screen.queryByTestId('org-key-revoke-7')).toBeNull();
  });

  it('keeps the key when revoking is cancelled', async () => {
    const api = fakeAccountApi({ orgKeys: [LIVE] });
    renderApp(asApi(api), { path: '/me/organization-keys', signedIn: true });
    fireEvent.click(within(await rowOf(7)).getByTestId('org-key-revoke-7'));
    fireEvent.click(await find('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(api.sent('DELETE', '/organization-api-key/7')).toHaveLength(0);
    expect((await rowOf(7)).getAttribute('data-revoked')).toBe('false');
  });

  it('is read-only in the shared demo', async () => {
    renderApp(asApi(fakeAccountApi({ demo: true, orgKeys: [LIVE] })), { path: '/me/organization-keys', signedIn: true });
    expect((await find('org-key-create')).hasAttribute('disabled')).toBe(true);
    expect(
      within(await rowOf(7))
        .getByTestId('org-key-revoke-7')
        .hasAttribute('disabled'),
    ).toBe(true);
  });
});

describe('the activity log names the key where there is no user', () => {
  const entry = (over: Partial<ActivityLogEntry>): ActivityLogEntry => ({
    id: 1,
    entity: 'tag',
    entity_id: 3,
    action: 'create',
    field: 'name',
    previous_value: null,
    new_value: 'VIP',
    browser: null,
    os: null,
    device: null,
    user_id: null,
    user_name: null,
    api_key_id: null,
    api_key_name: null,
    created_at: '2026-11-01T10:00:00.000Z',
    ...over,
  });

  it('shows the user for a change a person made and the key for one a key made', async () => {
    const log = [entry({ id: 1, user_id: 1, user_name: 'Ann Admin' }), entry({ id: 2, api_key_id: 7, api_key_name: 'CRM sync', new_value: 'From CRM' })];
    renderApp(asApi(fakeAccountApi({ activityLog: log })), { path: '/activity-log', signedIn: true });
    const byKey = await find('activity-by-key');
    expect(byKey.textContent).toBe('API key: CRM sync');
    expect(within(screen.getByTestId('list-table')).getByText('Ann Admin')).toBeTruthy();
    expect(screen.getAllByTestId('activity-by-key')).toHaveLength(1);
  });
});
