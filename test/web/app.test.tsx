import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from './fake-api';
import { renderApp } from './render-app';
import { notifyError } from '../../web/src/components/common/notify';

const byTestId = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const rowNames = () => screen.queryAllByTestId('list-row').map((row) => row.querySelector('[data-column="name"]')!.textContent);

describe('console screens', () => {
  it('shows the Organisation not found screen when init/guest answers org_not_found', async () => {
    renderApp(fakeApi({ orgMissing: true }));
    const screenEl = await byTestId('org-not-found');
    expect(screenEl.textContent).toContain('Organisation not found');
  });

  it('signs in with the password tab, lands on / with the dashboard and the Contacts entry', async () => {
    const api = fakeApi();
    renderApp(api);
    expect((await byTestId('signin-card')).textContent).toContain('Social');
    fireEvent.change(await byTestId('signin-username'), { target: { value: 'ann' } });
    fireEvent.change(await byTestId('signin-password'), { target: { value: 'Secret1!' } });
    fireEvent.click(await byTestId('signin-submit'));
    expect((await byTestId('dashboard')).textContent).toContain('Welcome, Ann Admin');
    expect(window.location.pathname).toBe('/');
    expect((await byTestId('nav-contacts')).getAttribute('href')).toBe('/contact');
    expect((await byTestId('nav-templates')).getAttribute('href')).toBe('/template');
    expect(localStorage.getItem('accessToken')).toBe('acc');
  });

  it('shows the translated login-failed message on wrong credentials', async () => {
    renderApp(fakeApi());
    fireEvent.change(await byTestId('signin-username'), { target: { value: 'ann' } });
    fireEvent.change(await byTestId('signin-password'), { target: { value: 'nope' } });
    fireEvent.click(await byTestId('signin-submit'));
    expect((await byTestId('signin-error')).textContent).toBe('Invalid email or password. Please check your credentials and try again.');
  });

  it('redirects a guest from a user route to /', async () => {
    renderApp(fakeApi(), { path: '/tag' });
    await byTestId('signin-card');
    expect(window.location.pathname).toBe('/');
  });

  it('redirects a signed-in user away from a guest-only route', async () => {
    renderApp(fakeApi(), { path: '/password-reset', signedIn: true });
    await byTestId('dashboard');
    expect(window.location.pathname).toBe('/');
  });

  it('shows Page not found for unknown paths and at /page-not-found', async () => {
    renderApp(fakeApi(), { path: '/no/such/page' });
    expect((await byTestId('not-found')).textContent).toContain('Page not found');
  });

  it('lets everyone open static pages', async () => {
    renderApp(fakeApi(), { path: '/terms' });
    expect((await byTestId('page-terms')).textContent).toContain('Terms of service');
  });
});

describe('tag list', () => {
  it('lists tags with total and breadcrumbs, sorts by a column and saves the preference', async () => {
    const api = fakeApi({ tags: ['beta', 'alpha', 'gamma'] });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toEqual(['beta', 'alpha', 'gamma']));
    expect((await byTestId('list-total')).textContent).toBe('3');
    expect((await byTestId('breadcrumbs')).textContent).toBe('Contacts/Tags');

    fireEvent.click(await byTestId('sort-name'));
    await waitFor(() => expect(rowNames()).toEqual(['alpha', 'beta', 'gamma']));
    expect(api.calls.some((c) => c.url.includes('sort_by=name&sort_order=asc'))).toBe(true);
    expect(JSON.parse(localStorage.getItem('dataTable:5:2:tag')!)).toMatchObject({ sortBy: [{ key: 'name', order: 'asc' }], itemsPerPage: 10 });
    // Drag handles only while sorted by priority.
    expect(screen.queryAllByTestId('row-drag-handle')).toHaveLength(0);

    fireEvent.click(await byTestId('sort-name'));
    await waitFor(() => expect(rowNames()).toEqual(['gamma', 'beta', 'alpha']));
  });

  it('searches (debounced) and restores the saved search on the next visit', async () => {
    const api = fakeApi({ tags: ['vip one', 'regular', 'vip two'] });
    const first = renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toHaveLength(3));
    fireEvent.change(await byTestId('list-search'), { target: { value: 'vip' } });
    await waitFor(() => expect(rowNames()).toEqual(['vip one', 'vip two']), { timeout: 3000 });
    expect(api.calls.filter((c) => c.url.includes('search=')).map((c) => new URL(c.url, 'http://x').searchParams.get('search'))).toEqual(['vip']);
    first.unmount();

    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toEqual(['vip one', 'vip two']));
    expect(((await byTestId('list-search')) as HTMLInputElement).value).toBe('vip');
  });

  it('loads more pages and changes the page size', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `tag ${String(i + 1).padStart(2, '0')}`);
    renderApp(fakeApi({ tags: names }), { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toHaveLength(10));
    fireEvent.click(await byTestId('list-load-more'));
    await waitFor(() => expect(rowNames()).toHaveLength(12));
    expect(screen.queryByTestId('list-load-more')).toBeNull();

    fireEvent.change(await byTestId('list-page-size'), { target: { value: '25' } });
    await waitFor(() => expect(rowNames()).toHaveLength(12));
    expect(JSON.parse(localStorage.getItem('dataTable:5:2:tag')!).itemsPerPage).toBe(25);
  });

  it('deletes a row after confirmation', async () => {
    const api = fakeApi({ tags: ['keep', 'drop'] });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toEqual(['keep', 'drop']));
    const row = screen.getAllByTestId('list-row')[1];
    fireEvent.click(within(row).getByTestId('row-delete'));
    fireEvent.click(await byTestId('confirm-ok'));
    await waitFor(() => expect(rowNames()).toEqual(['keep']));
    expect(api.calls.some((c) => c.method === 'DELETE' && c.url === '/api/v1/tag/2')).toBe(true);
    expect(await screen.findByText('The item was deleted')).toBeTruthy();
  });

  it('deletes the selected rows, and all rows with the current filters', async () => {
    const api = fakeApi({ tags: ['a1', 'a2', 'b1', 'b2'] });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toHaveLength(4));
    const rows = screen.getAllByTestId('list-row');
    fireEvent.click(within(rows[0]).getByTestId('row-select'));
    fireEvent.click(within(rows[2]).getByTestId('row-select'));
    fireEvent.click(await byTestId('list-delete-selected'));
    fireEvent.click(await byTestId('confirm-ok'));
    await waitFor(() => expect(rowNames()).toEqual(['a2', 'b2']));
    expect(api.calls.find((c) => c.method === 'DELETE')!.body).toEqual({ ids: [1, 3] });

    fireEvent.change(await byTestId('list-search'), { target: { value: 'b' } });
    await waitFor(() => expect(rowNames()).toEqual(['b2']), { timeout: 3000 });
    fireEvent.click(await byTestId('list-delete-all'));
    fireEvent.click(await byTestId('confirm-ok'));
    await waitFor(() => expect(api.tags().map((t) => t.name)).toEqual(['a2']));
    // Every matching row was loaded, so exactly those are deleted (by id), not whatever the server's search matches.
    expect(api.calls.filter((c) => c.method === 'DELETE').at(-1)!.body).toEqual({ ids: [4] });
  });

  it('deletes all rows a removing page at a time with progress, until none are left', async () => {
    const api = fakeApi({ tags: Array.from({ length: 250 }, (_, i) => `tag ${i}`) });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames().length).toBeGreaterThan(0));
    fireEvent.click(await byTestId('list-delete-all'));
    fireEvent.click(await byTestId('confirm-ok'));
    expect((await byTestId('delete-all-progress')).textContent).toMatch(/Deleting… \d+ of 250/);
    await waitFor(() => expect(api.tags()).toEqual([]));
    const deletes = api.calls.filter((c) => c.method === 'DELETE');
    expect(deletes.map((c) => c.body)).toEqual([1, 2, 3].map(() => ({ all: true, page_size: 100 })));
    expect((await screen.findAllByText('The items were deleted')).length).toBeGreaterThan(0);
    await waitFor(() => expect(screen.queryByTestId('delete-all-progress')).toBeNull());
    // Toasts outlive a test; Mantine queues past five, which would hide the next tests' own.
    act(() => notifications.clean());
  });

  afterEach(() => vi.restoreAllMocks());

  it('reorders with the keyboard on the drag handle and sends the page ids in the new order', async () => {
    // happy-dom has no layout: give each row a 40px slot so dnd-kit can measure where rows are.
    const original = HTMLElement.prototype.getBoundingClientRect;
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      const row = this.closest('[data-testid="list-row"]');
      if (!row) return original.call(this);
      const index = Array.from(row.parentElement!.children).indexOf(row);
      return { x: 0, y: index * 40, top: index * 40, left: 0, width: 600, height: 40, right: 600, bottom: index * 40 + 40, toJSON: () => ({}) } as DOMRect;
    });
    const api = fakeApi({ tags: ['first', 'second', 'third'] });
    renderApp(api, { path: '/tag', signedIn: true });
    await waitFor(() => expect(rowNames()).toEqual(['first', 'second', 'third']));
    expect(screen.getAllByTestId('row-drag-handle')).toHaveLength(3);
    const handle = screen.getAllByTestId('row-drag-handle')[0];
    handle.focus();
    await act(async () => {
      fireEvent.keyDown(handle, { key: ' ', code: 'Space' });
      await new Promise((r) => setTimeout(r, 50));
    });
    await act(async () => {
      fireEvent.keyDown(document.activeElement ?? handle, { key: 'ArrowDown', code: 'ArrowDown' });
      await new Promise((r) => setTimeout(r, 50));
    });
    await act(async () => {
      fireEvent.keyDown(document.activeElement ?? handle, { key: ' ', code: 'Space' });
      await new Promise((r) => setTimeout(r, 50));
    });
    const reorder = await waitFor(() => {
      const call = api.calls.find((c) => c.url === '/api/v1/tag/priorities');
      expect(call).toBeDefined();
      return call!;
    });
    expect(reorder.body).toEqual({ ids: [2, 1, 3] });
    await waitFor(() => expect(rowNames()).toEqual(['second', 'first', 'third']));
  });
});

describe('tag form', () => {
  it('shows 422 messages on the field with the general message, clears them on edit, then creates', async () => {
    const api = fakeApi({ tags: ['existing'] });
    renderApp(api, { path: '/tag/create', signedIn: true });
    expect((await byTestId('breadcrumbs')).textContent).toBe('Contacts/Tags/Create');
    fireEvent.click(await byTestId('form-submit'));
    expect((await byTestId('form-error')).textContent).toContain('Some fields are filled incorrectly. Fix the errors and try again.');
    expect(await screen.findByText('This field is required')).toBeTruthy();

    const input = await byTestId('form-field-name');
    fireEvent.change(input, { target: { value: 'existing' } });
    await waitFor(() => expect(screen.queryByText('This field is required')).toBeNull());
    fireEvent.click(await byTestId('form-submit'));
    expect(await screen.findByText('Value already exists, use a different one.')).toBeTruthy();

    fireEvent.change(input, { target: { value: 'fresh' } });
    fireEvent.click(await byTestId('form-submit'));
    await waitFor(() => expect(window.location.pathname).toBe('/tag'));
    await waitFor(() => expect(rowNames()).toEqual(['existing', 'fresh']));
    expect(await screen.findByText('Created successfully')).toBeTruthy();
  });

  it('brings the first field with a message into focus, and a success replaces an earlier red message', async () => {
    const api = fakeApi({ tags: ['existing'] });
    renderApp(api, { path: '/tag/create', signedIn: true });
    const input = await byTestId('form-field-name');
    fireEvent.change(input, { target: { value: 'existing' } });
    fireEvent.click(await byTestId('form-submit'));
    expect(await screen.findByText('Value already exists, use a different one.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(input));
    notifyError('An earlier failure');
    expect(await screen.findByText('An earlier failure')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'brand new' } });
    fireEvent.click(await byTestId('form-submit'));
    expect(await screen.findByText('Created successfully')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('An earlier failure')).toBeNull());
  });

  it('edits and deletes an open item', async () => {
    const api = fakeApi({ tags: ['old name'] });
    renderApp(api, { path: '/tag/update/1', signedIn: true });
    const input = (await byTestId('form-field-name')) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe('old name'));
    fireEvent.change(input, { target: { value: 'new name' } });
    fireEvent.click(await byTestId('form-submit'));
    await waitFor(() => expect(rowNames()).toEqual(['new name']));
    expect(api.calls.find((c) => c.method === 'PUT')).toMatchObject({ url: '/api/v1/tag/1', body: { name: 'new name' } });

    fireEvent.click(within(screen.getAllByTestId('list-row')[0]).getByTestId('row-edit'));
    fireEvent.click(await byTestId('form-delete'));
    fireEvent.click(await byTestId('confirm-ok'));
    await waitFor(() => expect(window.location.pathname).toBe('/tag'));
    await waitFor(() => expect(rowNames()).toEqual([]));
    expect(api.tags()).toEqual([]);
  });
});

describe('account and language', () => {
  it('switches the language, remembers it, and signs out to /', async () => {
    const api = fakeApi();
    const { services } = renderApp(api, { path: '/', signedIn: true });
    await byTestId('dashboard');
    fireEvent.change(await byTestId('language-switcher'), { target: { value: 'de' } });
    await waitFor(() => expect(screen.getByTestId('nav-contacts').textContent).toBe('Kontakte'));
    expect(localStorage.getItem('language')).toBe('de');
    expect(services.i18n.language).toBe('de');

    fireEvent.click(await byTestId('account-menu'));
    fireEvent.click(await byTestId('signout'));
    await byTestId('signin-card');
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(api.calls.some((c) => c.url === '/api/v1/internal-auth/logout')).toBe(true);
  });
});
