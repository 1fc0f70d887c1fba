import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deviceOf, shortId } from '../../../web/src/features/account/MySessionsPage';
import { renderApp } from '../render-app';
import { fakeAccountApi } from './fake-account-api';
import { asApi, find } from './shared';

const rows = async () => {
  await waitFor(() => expect(screen.getAllByTestId('list-row').length).toBeGreaterThan(0), { timeout: 3000 });
  return screen.getAllByTestId('list-row');
};
const rowOf = async (id: string) => (await rows()).find((row) => row.getAttribute('data-id') === id)!;

describe('my sessions', () => {
  it('lists the sessions with the current one marked, and nothing to search or create', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/session', signedIn: true });
    expect(await rows()).toHaveLength(3);
    const current = await rowOf('sess-current');
    expect(current.getAttribute('data-current')).toBe('true');
    expect(within(current).getByTestId('session-current')).toBeTruthy();
    expect(screen.getAllByTestId('session-current')).toHaveLength(1);
    // No device name: the user agent is shown.
    expect((await rowOf('sess-phone')).querySelector('[data-column="device"]')?.textContent).toContain('iOS');
    expect((await rowOf('sess-phone')).querySelector('[data-column="ip"]')?.textContent).toBe('10.0.0.2');
    // Never refreshed: a dash, like other empty cells.
    // Never refreshed: the sign-in time (when its tokens were issued), never an empty cell.
    const cell = async (id: string) => (await rowOf(id)).querySelector('[data-column="refreshes_at"]')?.textContent;
    expect(await cell('sess-phone')).toBe((await rowOf('sess-phone')).querySelector('[data-column="updated_at"]')?.textContent);
    expect(await cell('sess-current')).not.toBe(await cell('sess-phone'));
    expect(screen.queryByTestId('list-search')).toBeNull();
    expect(screen.queryByTestId('list-create')).toBeNull();
    expect(screen.queryByTestId('row-edit')).toBeNull();
  });

  it('revokes the selected sessions with their ids after confirmation', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/session', signedIn: true });
    const button = await find('sessions-revoke-selected');
    expect(button.hasAttribute('disabled')).toBe(true);
    fireEvent.click(within(await rowOf('sess-phone')).getByTestId('row-select'));
    fireEvent.click(within(await rowOf('sess-office')).getByTestId('row-select'));
    await waitFor(() => expect(screen.getByTestId('sessions-revoke-selected').hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByTestId('sessions-revoke-selected'));
    expect(api.sent('DELETE', '/session')).toHaveLength(0);
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(api.sent('DELETE', '/session')).toHaveLength(1));
    expect(api.sent('DELETE', '/session')[0].body).toEqual({ ids: ['sess-phone', 'sess-office'] });
    await waitFor(async () => expect(await rows()).toHaveLength(1));
    // Still signed in: the current session was not among them.
    expect(window.location.pathname).toBe('/me/session');
  });

  it('revokes one session after confirmation', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/session', signedIn: true });
    fireEvent.click(within(await rowOf('sess-office')).getByTestId('row-revoke'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(api.sent('DELETE', '/session/sess-office')).toHaveLength(1));
    await waitFor(async () => expect(await rows()).toHaveLength(2));
  });

  it('signs out when the current session is revoked', async () => {
    const api = fakeAccountApi();
    const { services } = renderApp(asApi(api), { path: '/me/session', signedIn: true });
    fireEvent.click(within(await rowOf('sess-current')).getByTestId('row-revoke'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(api.sent('DELETE', '/session/sess-current')).toHaveLength(1);
    expect(services.session.user()).toBeNull();
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('select all picks every row', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/session', signedIn: true });
    await rows();
    fireEvent.click(screen.getByTestId('list-select-all'));
    fireEvent.click(screen.getByTestId('sessions-revoke-selected'));
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(api.sent('DELETE', '/session')).toHaveLength(1));
    expect(api.sent('DELETE', '/session')[0].body).toEqual({ ids: ['sess-current', 'sess-phone', 'sess-office'] });
    // The current one was among them: signed out.
    await waitFor(() => expect(window.location.pathname).toBe('/'));
  });

  it('names a device by its browser and system, else a name it gave (not the console id), else its user agent', () => {
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const edge = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70';
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    expect(deviceOf({ device: 'relay-console:0de5ef12', user_agent: chrome })).toBe('Chrome 131 on Windows');
    expect(deviceOf({ device: null, user_agent: iphone })).toBe('Safari 18 on iOS');
    expect(deviceOf({ device: null, user_agent: edge })).toBe('Edge 131 on macOS');
    expect(deviceOf({ device: null, user_agent: firefox })).toBe('Firefox 133 on Linux');
    expect(deviceOf({ device: 'Laptop', user_agent: 'UA' })).toBe('Laptop');
    expect(deviceOf({ device: 'relay-console:0de5ef12', user_agent: 'curl/8.5.0' })).toBe('curl/8.5.0');
    expect(deviceOf({ device: ' ', user_agent: 'UA' })).toBe('UA');
    expect(deviceOf({ device: null, user_agent: null })).toBe('—');
  });
});

describe('shortId', () => {
  it('cuts a UUID to its first 8 characters and keeps short ids whole', () => {
    expect(shortId('38304dc7-a9b8-4d3b-a48d-58353e868550')).toBe('38304dc7…');
    expect(shortId('sess-phone')).toBe('sess-phone');
  });
});
