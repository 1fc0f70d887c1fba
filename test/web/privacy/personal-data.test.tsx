import { PRIVACY_MESSAGES } from '@shared/contracts/privacy';
import { MESSAGES } from '@shared/messages';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTACT, FIELDS, fakeAudienceApi } from '../fake-audience-api';
import { json, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The contact's "Personal data" card (issue 40): the export dialog's two downloads, and the erasure dialog that
// waits for one of the contact's addresses typed, posts it, shows the server's field message, then what was erased.

beforeAll(async () => {
  await import('../../../web/src/features/contact/ContactViewPage');
});

const find = (id: string) => screen.findByTestId(id, undefined, { timeout: 3000 });
const ERASURE = {
  id: 1,
  contact_id: 9,
  state: 'done',
  messages: 12,
  archive_objects_rewritten: 3,
  archive_objects_total: 40,
  archived_messages: 30,
  import_files_rewritten: 1,
  kept_mails_deleted: 0,
  suppressions_removed: 1,
  activity_entries_cleared: 4,
  created_at: '2026-11-28T10:00:00.000Z',
  finished_at: '2026-11-28T10:00:01.000Z',
};

function privacyApi(erase: (call: FetchCall) => Response) {
  return fakeAudienceApi({
    fields: FIELDS,
    contacts: [CONTACT],
    answer: (call) => {
      const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
      if (path === '/contact/9/export') return new Response('{"contact":{}}', { status: 200, headers: { 'content-type': 'application/json' } });
      if (path === '/contact/9/erase' && call.method === 'POST') return erase(call);
      return null;
    },
  });
}

describe("the contact's personal data", () => {
  it('downloads the export as JSON and as a readable page', async () => {
    // The download is handed to the browser by a link's click: jsdom would try to navigate to it.
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const api = privacyApi(() => json(500, {}));
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    fireEvent.click(await find('privacy-export-open'));
    await find('privacy-export-dialog');
    fireEvent.click(await find('privacy-export-json'));
    await waitFor(() => expect(api.calls.some((c) => c.url.endsWith('/api/v1/contact/9/export?format=json'))).toBe(true));
    await waitFor(() => expect((screen.getByTestId('privacy-export-json') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('privacy-export-html'));
    await waitFor(() => expect(api.calls.some((c) => c.url.endsWith('/api/v1/contact/9/export?format=html'))).toBe(true));
    expect(created).toHaveBeenCalledTimes(2);
    expect(clicked).toHaveBeenCalledTimes(2);
    created.mockRestore();
    clicked.mockRestore();
  });

  it('erases only once an address of the contact is typed, and then shows what was erased', async () => {
    const api = privacyApi(() => json(200, { data: ERASURE }));
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    fireEvent.click(await find('privacy-erase-open'));
    const input = await find('privacy-erase-confirm-input');
    const submit = () => screen.getByTestId('privacy-erase-submit') as HTMLButtonElement;
    expect(submit().disabled).toBe(true);
    fireEvent.change(input, { target: { value: 'someone@else.io' } });
    expect(submit().disabled).toBe(true);
    // Case and spaces aside, as the server compares.
    fireEvent.change(input, { target: { value: '  ANN@x.io ' } });
    expect(submit().disabled).toBe(false);
    fireEvent.click(submit());
    await find('privacy-erase-result');
    const post = api.calls.find((c) => c.method === 'POST' && c.url.endsWith('/contact/9/erase'))!;
    expect(post.body).toEqual({ confirm: '  ANN@x.io ' });
    expect(screen.getByTestId('privacy-erase-count-archives').textContent).toContain('3 of 40');
    expect(screen.getByTestId('privacy-erase-count-messages').textContent).toContain('12');
    fireEvent.click(screen.getByTestId('privacy-erase-done'));
    await waitFor(() => expect(window.location.pathname).toBe('/contact'));
  });

  it('shows the server’s refusal under the typed address', async () => {
    const api = privacyApi(() =>
      json(422, { error: { code: 'validation_failed', message: MESSAGES.invalidForm, fields: { confirm: [PRIVACY_MESSAGES.confirmMismatch] } } }),
    );
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    fireEvent.click(await find('privacy-erase-open'));
    fireEvent.change(await find('privacy-erase-confirm-input'), { target: { value: '+15550001' } });
    fireEvent.click(screen.getByTestId('privacy-erase-submit'));
    await screen.findByText('This is not one of the contact’s addresses', undefined, { timeout: 3000 });
    expect(screen.queryByTestId('privacy-erase-result')).toBeNull();
  });

  it('tells why an erasure must wait (409)', async () => {
    const api = privacyApi(() => json(409, { error: { code: 'conflict', message: PRIVACY_MESSAGES.importRunning } }));
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    fireEvent.click(await find('privacy-erase-open'));
    fireEvent.change(await find('privacy-erase-confirm-input'), { target: { value: 'ann@x.io' } });
    fireEvent.click(screen.getByTestId('privacy-erase-submit'));
    expect((await find('privacy-erase-error')).textContent).toContain('An import is running');
  });
});
