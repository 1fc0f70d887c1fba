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
    expect((await rowOf('sess-phone')).querySelector('[data-column="device"]')?.textContent).toContain('iPhone');
    expect((await rowOf('sess-phone')).querySelector('[data-column="ip"]')?.textContent).toBe('10.0.0.2');
    // Never refreshed: a dash, like other empty cells.
    expect((await rowOf('sess-phone')).querySelector('[data-column="refreshes_at"]')?.textContent).toBe('—');
    expect((await rowOf('sess-current')).querySelector('[data-column="refreshes_at"]')?.textContent).not.toBe('—');
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

  it('names a device by its name, else its user agent', () => {
    expect(deviceOf({ device: 'Laptop', user_agent: 'UA' })).toBe('Laptop');
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
