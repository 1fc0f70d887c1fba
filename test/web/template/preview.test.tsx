import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DOMAIN_MESSAGES } from '@shared/contracts/domain';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The template preview and a test message with no contact chosen fill the placeholders with their `default:` values
// (the template's own fallbacks), never with the newest contact's data (issue 35, finding 5); "Send test message" is on
// the template's own page, in view as it opens.

const TEMPLATE = {
  id: 3,
  name: 'Welcome',
  type: 'html',
  subject: 'Hi',
  body: '<p>Hello {{ contact.name | default: "there" }}!</p>',
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

function previewApi(senders: { id: number; type: string; value: string; name: string | null; domain_state?: string }[] = []) {
  const base = fakeApi();
  const previews: unknown[] = [];
  const tests: unknown[] = [];
  const handle = (call: FetchCall): Response | null => {
    const url = new URL(call.url, 'http://acme.localhost');
    const path = url.pathname.replace('/api/v1', '');
    if (path === '/template/3') return json(200, { data: TEMPLATE });
    if (path === '/sender') return json(200, { items: senders, meta: { total: senders.length, page: 1, page_size: 50, total_pages: 1 } });
    if (path === '/contact') return json(200, { items: [GRACE], meta: { total: 1, page: 1, page_size: 10, total_pages: 1 } });
    if (path === '/template/3/preview') {
      const contactId = (call.body as { contact_id: number | null }).contact_id;
      previews.push(contactId);
      // As the worker renders it: the contact's name, else the template's fallback.
      const name = contactId === GRACE.id ? GRACE.name : 'there';
      return json(200, { data: { subject: 'Hi', body: `<p>Hello ${name}!</p>`, body_plain: `Hello ${name}!` } });
    }
    if (path === '/template/3/test' && call.method === 'POST') {
      tests.push(call.body);
      return json(202, { data: { id: 40, status: 'queued', to_address: (call.body as { to: string }).to } });
    }
    if (path === '/template/3/attachment' || path === '/dictionary/template-types')
      return json(200, { items: [], meta: { total: 0, page: 1, page_size: 100, total_pages: 0 } });
    return null;
  };
  const api = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { api: api as unknown as ReturnType<typeof fakeApi>, previews, tests };
}

describe('the template preview', () => {
  it("opens for no contact, with the placeholders' default values rather than the newest contact's data", async () => {
    const { api, previews } = previewApi();
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    await waitFor(() => expect(screen.getByTestId('preview-body').getAttribute('srcdoc')).toContain('Hello there!'), { timeout: 3000 });
    expect(previews).toEqual([null]);
    expect((screen.getByTestId('preview-contact') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('preview-contact') as HTMLInputElement).placeholder).toBe('No contact: placeholders show their default values');
  });
});

describe("the template's page", () => {
  const EMAIL = { id: 1, type: 'email', value: 'hello@acme.test', name: 'Acme' };

  it('has "Send test message" beside its title, and sends with no contact chosen', async () => {
    const { api, tests } = previewApi([EMAIL]);
    renderApp(api, { path: '/template/update/3', signedIn: true });
    const open = await screen.findByTestId('template-send-test', undefined, { timeout: 3000 });
    // In view as the page opens: before the form's first field, not at its bottom beside Save.
    const form = screen.getByTestId('entity-form');
    const firstField = form.querySelector('input, textarea')!;
    expect(open.compareDocumentPosition(firstField) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByTestId('template-preview').textContent).toBe('Preview');
    fireEvent.click(open);
    await waitFor(() => expect((screen.getByTestId('test-message-sender') as HTMLInputElement).value).toBe('Acme <hello@acme.test>'), { timeout: 3000 });
    expect((screen.getByTestId('test-message-contact') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('test-message-dialog').textContent).toContain('Without one, they show their default values.');
    fireEvent.change(screen.getByTestId('test-message-to'), { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByTestId('test-message-send'));
    await screen.findByTestId('test-message-result');
    expect(tests).toEqual([{ sender_id: 1, to: 'me@example.com', contact_id: null }]);
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
    // No contact chosen on the preview: the address is the user's to type.
    expect((screen.getByTestId('test-message-to') as HTMLInputElement).value).toBe('');
    expect(screen.getByTestId('test-message-blocked').textContent).toBe('Type the email address to send to.');
    expect((screen.getByTestId('test-message-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByTestId('test-message-to'), { target: { value: 'me@example.com' } });
    expect(screen.queryByTestId('test-message-blocked')).toBeNull();
  });

  it("warns (without refusing) when the chosen sender's domain is unverified, with a link to Domains; none on a verified one", async () => {
    const unverified = { ...EMAIL, domain_state: 'unverified' };
    const { api, tests } = previewApi([unverified]);
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    fireEvent.click(await screen.findByTestId('preview-send-test', undefined, { timeout: 3000 }));
    const warning = await screen.findByTestId('sender-domain-warning', undefined, { timeout: 3000 });
    expect(warning.textContent).toContain(DOMAIN_MESSAGES.unverifiedSender);
    expect(within(warning).getByTestId('sender-domain-link').getAttribute('href')).toBe('/domain');
    fireEvent.change(screen.getByTestId('test-message-to'), { target: { value: 'me@example.com' } });
    fireEvent.click(screen.getByTestId('test-message-send'));
    await screen.findByTestId('test-message-result');
    expect(tests).toEqual([{ sender_id: 1, to: 'me@example.com', contact_id: null }]);
  });

  it('does not warn for a sender on a verified domain', async () => {
    const { api } = previewApi([{ ...EMAIL, domain_state: 'verified' }]);
    renderApp(api, { path: '/template/preview/3', signedIn: true });
    fireEvent.click(await screen.findByTestId('preview-send-test', undefined, { timeout: 3000 }));
    await waitFor(() => expect((screen.getByTestId('test-message-sender') as HTMLInputElement).value).toBe('Acme <hello@acme.test>'), { timeout: 3000 });
    expect(screen.queryByTestId('sender-domain-warning')).toBeNull();
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
