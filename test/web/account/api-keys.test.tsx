import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ApiKeyRow } from '@shared/contracts/account';
import { MESSAGES } from '@shared/messages';
import { describe, expect, it } from 'vitest';
import { cutNote } from '../../../web/src/features/account/MyApiKeysPage';
import { renderApp } from '../render-app';
import { fakeAccountApi } from './fake-account-api';
import { alertTexts, asApi, find } from './shared';

const KEY: ApiKeyRow = {
  id: 31,
  name: 'key-abc',
  note: 'Nightly export from the warehouse to the mailing list',
  created_at: '2026-10-01T10:00:00.000Z',
  updated_at: '2026-10-02T10:00:00.000Z',
};

const firstRow = async () => {
  await waitFor(() => expect(screen.getAllByTestId('list-row').length).toBeGreaterThan(0), { timeout: 3000 });
  return screen.getAllByTestId('list-row')[0];
};

describe('API key list', () => {
  it('offers create only while the user has no key, and links the API documentation in a new tab', async () => {
    renderApp(asApi(fakeAccountApi()), { path: '/me/api', signedIn: true });
    expect(await find('list-empty')).toBeTruthy();
    expect((await find('api-key-create')).getAttribute('href')).toBe('/me/api/create');
    const docs = screen.getByTestId('api-docs-link');
    expect(docs.getAttribute('href')).toBe('/api/swagger-ui');
    expect(docs.getAttribute('target')).toBe('_blank');
  });

  it('hides create when a key exists and shows its columns, the note cut', async () => {
    renderApp(asApi(fakeAccountApi({ apiKeys: [KEY] })), { path: '/me/api', signedIn: true });
    const row = await firstRow();
    expect(screen.queryByTestId('api-key-create')).toBeNull();
    expect(row.querySelector('[data-column="name"]')?.textContent).toBe('key-abc');
    expect(row.querySelector('[data-column="id"]')?.textContent).toBe('31');
    const note = row.querySelector('[data-column="note"]')!;
    expect(note.textContent).toBe(cutNote(KEY.note));
    expect(note.textContent!.length).toBeLessThan(KEY.note!.length);
    expect(note.getAttribute('title')).toBe(KEY.note);
    expect(within(row).getByTestId('row-edit').getAttribute('href')).toBe('/me/api/update/31');
    // No paging or search on this list.
    expect(screen.queryByTestId('list-search')).toBeNull();
    expect(screen.queryByTestId('list-page-size')).toBeNull();
  });

  it('regenerates only after confirmation, replaces the row and shows the new key once', async () => {
    const api = fakeAccountApi({ apiKeys: [KEY] });
    renderApp(asApi(api), { path: '/me/api', signedIn: true });
    fireEvent.click(within(await firstRow()).getByTestId('row-regenerate'));
    expect(api.sent('POST', '/internal-api-key/31/regenerate')).toHaveLength(0);
    await act(async () => fireEvent.click(await find('confirm-ok')));
    expect((await find('api-key-value')).textContent).toBe('secret-key-1');
    expect(screen.getByTestId('api-key-once').textContent).toContain('will not be shown again');
    expect(api.sent('POST', '/internal-api-key/31/regenerate')).toHaveLength(1);
    await waitFor(async () => expect((await firstRow()).querySelector('[data-column="name"]')?.textContent).toBe('key-1'));
    // The key lives only in the modal: closed, it is gone from the page.
    fireEvent.click(screen.getByTestId('api-key-close'));
    await waitFor(() => expect(screen.queryByTestId('api-key-value')).toBeNull());
    expect(document.body.textContent).not.toContain('secret-key-1');
  });

  it('keeps the key when regeneration is cancelled', async () => {
    const api = fakeAccountApi({ apiKeys: [KEY] });
    renderApp(asApi(api), { path: '/me/api', signedIn: true });
    fireEvent.click(within(await firstRow()).getByTestId('row-regenerate'));
    fireEvent.click(await find('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-cancel')).toBeNull());
    expect(api.sent('POST', '/internal-api-key/31/regenerate')).toHaveLength(0);
  });

  it('deletes after confirmation, then offers create again', async () => {
    const api = fakeAccountApi({ apiKeys: [KEY] });
    renderApp(asApi(api), { path: '/me/api', signedIn: true });
    fireEvent.click(within(await firstRow()).getByTestId('row-delete'));
    expect(api.sent('DELETE', '/internal-api-key/31')).toHaveLength(0);
    await act(async () => fireEvent.click(await find('confirm-ok')));
    await waitFor(() => expect(api.state.apiKeys).toHaveLength(0));
    expect(await find('api-key-create')).toBeTruthy();
    expect(screen.queryAllByTestId('list-row')).toHaveLength(0);
  });
});

describe('API key form', () => {
  it('creates a key with a note, shows it once with a copy button, and goes back to the list', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/api/create', signedIn: true });
    fireEvent.change(await find('api-key-note'), { target: { value: 'CRM sync' } });
    await act(async () => fireEvent.click(screen.getByTestId('api-key-form-submit')));
    expect((await find('api-key-value')).textContent).toBe('secret-key-1');
    expect(screen.getByTestId('api-key-copy')).toBeTruthy();
    // Copied at once where the clipboard allows it.
    await waitFor(async () => expect(await navigator.clipboard.readText()).toBe('secret-key-1'));
    expect(await find('api-key-auto-copied')).toBeTruthy();
    expect(api.sent('POST', '/internal-api-key')[0].body).toEqual({ note: 'CRM sync' });
    await waitFor(() => expect(window.location.pathname).toBe('/me/api'));
    // The list behind the modal has the new key, and no create button any more.
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(1));
    expect(screen.queryByTestId('api-key-create')).toBeNull();
  });

  it('sends an empty note as null', async () => {
    const api = fakeAccountApi();
    renderApp(asApi(api), { path: '/me/api/create', signedIn: true });
    const submit = await find('api-key-form-submit');
    await act(async () => fireEvent.click(submit));
    await waitFor(() => expect(api.sent('POST', '/internal-api-key')).toHaveLength(1));
    expect(api.sent('POST', '/internal-api-key')[0].body).toEqual({ note: null });
  });

  it('shows the server refusal of a second key', async () => {
    const api = fakeAccountApi({ apiKeys: [KEY] });
    renderApp(asApi(api), { path: '/me/api/create', signedIn: true });
    const submit = await find('api-key-form-submit');
    await act(async () => fireEvent.click(submit));
    expect((await find('api-key-form-error')).textContent).toBe(MESSAGES.apiKeyExists);
    expect(window.location.pathname).toBe('/me/api/create');
  });

  it('edits the note of an existing key', async () => {
    const api = fakeAccountApi({ apiKeys: [KEY] });
    renderApp(asApi(api), { path: '/me/api/update/31', signedIn: true });
    await waitFor(async () => expect(((await find('api-key-note')) as HTMLTextAreaElement).value).toBe(KEY.note));
    fireEvent.change(screen.getByTestId('api-key-note'), { target: { value: 'Changed' } });
    await act(async () => fireEvent.click(screen.getByTestId('api-key-form-submit')));
    await waitFor(() => expect(api.state.apiKeys[0].note).toBe('Changed'));
    await waitFor(() => expect(window.location.pathname).toBe('/me/api'));
    expect(screen.queryByTestId('api-key-value')).toBeNull();
    expect(alertTexts().some((text) => text.includes('Saved successfully'))).toBe(true);
  });

  it("says not found for a key that is not the user's", async () => {
    renderApp(asApi(fakeAccountApi({ apiKeys: [KEY] })), { path: '/me/api/update/99', signedIn: true });
    expect((await find('api-key-missing')).textContent).toBe(MESSAGES.notFound);
  });
});

describe('cutNote', () => {
  it('keeps short notes and cuts long ones with an ellipsis', () => {
    expect(cutNote(null)).toBe('');
    expect(cutNote('short')).toBe('short');
    expect(cutNote('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
