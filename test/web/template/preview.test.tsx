import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The template preview opens rendered for a contact (the first of the list), never for nobody ("Hello ,").

const TEMPLATE = {
  id: 3,
  name: 'Welcome',
  type: 'html',
  subject: 'Hi',
  body: '<p>Hello {{ contact.name }}!</p>',
  body_plain: null,
  attachments: [],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};
const GRACE = {
  id: 7,
  name: 'Grace Hopper',
  note: null,
  addresses: [{ id: 1, type: 'email', value: 'grace@example.com' }],
  tags: [],
  attributes: [],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};

function previewApi(senders: { id: number; type: string; value: string; name: string | null }[] = []) {
  const base = fakeApi();
  const previews: unknown[] = [];
  const handle = (call: FetchCall): Response | null => {
    const url = new URL(call.url, 'http://acme.localhost');
    const path = url.pathname.replace('/api/v1', '');
    if (path === '/template/3') return json(200, { data: TEMPLATE });
    if (path === '/sender') return json(200, { items: senders, meta: { total: senders.length, page: 1, page_size: 50, total_pages: 1 } });
    if (path === '/contact') return json(200, { items: [GRACE], meta: { total: 1, page: 1, page_size: 10, total_pages: 1 } });
    if (path === '/template/3/preview') {
      const contactId = (call.body as { contact_id: number | null }).contact_id;
      previews.push(contactId);
      const name = contactId === GRACE.id ? GRACE.name : '';
      return json(200, { data: { subject: 'Hi', body: `<p>Hello ${name}!</p>`, body_plain: `Hello ${name}!` } });
    }
    return null;
  };
  const api = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { api: api as unknown as ReturnType<typeof fakeApi>, previews };
}

describe('the template preview', () => {
  it('opens for the first contact rather than for nobody', async () => {
    const { api, previews } = previewApi();
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    await waitFor(() => expect(previews).toContain(GRACE.id), { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('preview-body').getAttribute('srcdoc')).toContain('Hello Grace Hopper!'));
    expect(previews).not.toContain(null);
  });
});

describe('send test message', () => {
  const EMAIL = { id: 1, type: 'email', value: 'hello@acme.test', name: 'Acme' };
  const PHONE = { id: 2, type: 'phone', value: '+15005550006', name: null };

  it('chooses the one sender that can send the template, and says what else Send waits for', async () => {
    const { api } = previewApi([PHONE, EMAIL]);
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    fireEvent.click(await screen.findByTestId('preview-send-test', undefined, { timeout: 3000 }));
    await waitFor(() => expect((screen.getByTestId('test-message-sender') as HTMLInputElement).value).toBe('Acme <hello@acme.test>'), { timeout: 3000 });
    // Filled in from the contact the preview shows: nothing is missing.
    await waitFor(() => expect((screen.getByTestId('test-message-to') as HTMLInputElement).value).toBe('grace@example.com'));
    expect(screen.queryByTestId('test-message-blocked')).toBeNull();
    fireEvent.change(screen.getByTestId('test-message-to'), { target: { value: '' } });
    expect(screen.getByTestId('test-message-blocked').textContent).toBe('Type the email address to send to.');
    expect((screen.getByTestId('test-message-send') as HTMLButtonElement).disabled).toBe(true);
  });

  it('leaves the choice to the user when two senders fit, and says so while Send is disabled', async () => {
    const { api } = previewApi([EMAIL, { ...EMAIL, id: 3, value: 'news@acme.test', name: 'News' }]);
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    fireEvent.click(await screen.findByTestId('preview-send-test', undefined, { timeout: 3000 }));
    expect((await screen.findByTestId('test-message-blocked')).textContent).toBe('Choose a sender to send from.');
    expect((screen.getByTestId('test-message-sender') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('test-message-send') as HTMLButtonElement).disabled).toBe(true);
  });
});
