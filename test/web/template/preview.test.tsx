import { screen, waitFor } from '@testing-library/react';
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

function previewApi() {
  const base = fakeApi();
  const previews: unknown[] = [];
  const handle = (call: FetchCall): Response | null => {
    const url = new URL(call.url, 'http://acme.localhost');
    const path = url.pathname.replace('/api/v1', '');
    if (path === '/template/3') return json(200, { data: TEMPLATE });
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
