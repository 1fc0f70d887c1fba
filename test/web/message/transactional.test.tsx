import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Message } from '@shared/contracts/message';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// Transactional messages (issue 36) in the whole console against a fake API: the message list's kind filter, kept in
// the address, and its badges; a transactional message's view with the key that sent it, how it went out and its
// metadata, each part only when the message has it.

beforeAll(async () => {
  // Each page is a lazy chunk: loaded once here rather than inside the first test's time budget.
  await Promise.all([import('../../../web/src/features/message/MessageListPage'), import('../../../web/src/features/message/MessageViewPage')]);
});

beforeEach(() => localStorage.clear());

const NOW = '2026-11-01T10:00:00.000Z';
const IN_A_DAY = new Date(Date.now() + 86_400_000).toISOString();
const list = (items: unknown[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: 1 } });

/** A message as GET /message/{id} answers, a broadcast's unless told otherwise. */
function message(values: Partial<Message>): Message {
  return {
    id: 1,
    type: 'email',
    status: 'sent',
    outcome: 'sent',
    is_test: false,
    kind: 'broadcast',
    metadata: null,
    api_key_id: null,
    cc: [],
    bcc: [],
    reply_to: null,
    subscription_id: null,
    sandbox: false,
    sender_id: 1,
    template_id: 3,
    contact_id: null,
    broadcast_id: null,
    from_address: 'hello@acme.test',
    from_name: 'Acme',
    to_address: 'ann@example.com',
    subject: 'Hello',
    body: '<p>Hello</p>',
    body_plain: null,
    html: true,
    delayed_at: null,
    sent_at: NOW,
    external_id: null,
    error: null,
    attempts: 1,
    opens_total: 0,
    opens_unique: 0,
    opened_at: null,
    clicks_total: 0,
    clicks_unique: 0,
    clicked_at: null,
    human_opens: 0,
    human_opened_at: null,
    human_clicks: 0,
    human_clicked_at: null,
    delivery_status: null,
    delivery_error_code: null,
    created_at: NOW,
    updated_at: NOW,
    ...values,
  };
}

/** A password reset sent through POST /send with a named key, in the "Account" category, held for a day. */
const RESET = message({
  id: 21,
  kind: 'transactional',
  to_address: 'cat@example.com',
  subject: 'Reset your password',
  api_key_id: 3,
  metadata: { user_id: 'u-829', flow: 'password-reset' },
  cc: ['support@acme.test', 'audit@acme.test'],
  bcc: ['archive@acme.test'],
  reply_to: 'help@acme.test',
  subscription_id: 6,
  status: 'queued',
  outcome: 'queued',
  sent_at: null,
  delayed_at: IN_A_DAY,
});
/** A receipt sent with a test key: recorded as sent, never delivered; nothing else given. */
const SANDBOXED = message({ id: 22, kind: 'transactional', to_address: 'dan@example.com', api_key_id: 9, sandbox: true });
/** A broadcast's message and a console test message. */
const FROM_BROADCAST = message({ id: 23, broadcast_id: 7, to_address: 'eve@example.com' });
const TEST = message({ id: 24, kind: 'test', is_test: true, to_address: 'me@acme.test' });
const ALL = [RESET, SANDBOXED, FROM_BROADCAST, TEST];

/** The fake API with the message routes; `keys` is the organisation key list's answer (a status for a refusal). */
function messagesApi(options: { keys?: { id: number; name: string }[] | number } = {}) {
  const base = fakeApi();
  const keys = options.keys ?? [{ id: 3, name: 'Web app (production)' }];
  const handle = (call: FetchCall): Response | null => {
    const url = new URL(call.url, 'http://acme.localhost');
    const path = url.pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/message') {
      const kind = url.searchParams.get('kind');
      return list(ALL.filter((m) => !kind || m.kind === kind).map(({ body, body_plain, html, ...item }) => item));
    }
    const one = ALL.find((m) => path === `/message/${m.id}`);
    if (one) return json(200, { data: one });
    if (path === '/organization-api-key') return typeof keys === 'number' ? json(keys, { error: { code: 'forbidden', message: 'Forbidden' } }) : list(keys);
    if (path === '/subscription') return list([{ id: 6, name: 'Account', priority: 1, created_at: NOW, updated_at: NOW }]);
    if (path === '/broadcast' || path === '/field' || path === '/tag') return list([]);
    if (path === '/broadcast/7') return json(404, { error: { code: 'not_found', message: 'Not found' } });
    return null;
  };
  return mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  ) as unknown as ReturnType<typeof fakeApi> & { calls: FetchCall[] };
}

/** The kinds the API was asked for on the message list, in order (null: no kind filter). */
const askedKinds = (api: { calls: FetchCall[] }) =>
  api.calls.filter((c) => new URL(c.url, 'http://x').pathname.endsWith('/message')).map((c) => new URL(c.url, 'http://x').searchParams.get('kind'));

/** Waits until the organisation's key list was asked for and its answer has been drawn. */
async function keyListAnswered(api: { calls: FetchCall[] }) {
  await waitFor(() => expect(api.calls.some((c) => c.url.includes('/organization-api-key'))).toBe(true), { timeout: 3000 });
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const rowOf = (address: string) => screen.getAllByTestId('list-row').find((row) => row.textContent?.includes(address))!;

describe('the message list', () => {
  it('marks transactional, test and sandbox messages, and none of a broadcast', async () => {
    renderApp(messagesApi(), { path: '/message', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(4), { timeout: 3000 });
    const badges = (address: string) =>
      [...within(rowOf(address)).queryAllByTestId('message-kind-badge'), ...within(rowOf(address)).queryAllByTestId('message-sandbox-badge')].map(
        (b) => b.textContent,
      );
    expect(badges('cat@example.com')).toEqual(['Transactional']);
    expect(badges('dan@example.com')).toEqual(['Transactional', 'Sandbox']);
    expect(badges('me@acme.test')).toEqual(['Test']);
    expect(badges('eve@example.com')).toEqual([]);
    expect(within(rowOf('cat@example.com')).getByTestId('message-kind-badge').getAttribute('data-kind')).toBe('transactional');
    // On a phone the table scrolls sideways: the badges ride with the address in the first column, on every width.
    const badge = within(rowOf('me@acme.test')).getByTestId('message-kind-badge');
    expect(badge.closest('td')!.textContent).toContain('me@acme.test');
    expect(badge.closest('[class*="mantine-hidden"]')).toBeNull();
  });

  it('filters by kind: Transactional asks the API for ?kind=transactional, and clearing it asks for every kind', async () => {
    const api = messagesApi();
    renderApp(api, { path: '/message', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(4), { timeout: 3000 });
    expect(askedKinds(api)).toEqual([null]);
    const select = screen.getByTestId('message-kind-filter');
    fireEvent.click(select);
    await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
    const options = within(document.getElementById(select.getAttribute('aria-controls')!)!).getAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['Broadcast', 'Test', 'Transactional']);
    fireEvent.click(options[2]);
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(2), { timeout: 3000 });
    expect(askedKinds(api).at(-1)).toBe('transactional');
    fireEvent.click(within(select.parentElement!).getByRole('button', { hidden: true }));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(4), { timeout: 3000 });
    expect(askedKinds(api).at(-1)).toBeNull();
  });
});

describe('the view of a transactional message', () => {
  it('shows its kind, the key by name, its category, cc, bcc, reply-to, scheduled time and metadata', async () => {
    renderApp(messagesApi(), { path: '/message/view/21', signedIn: true });
    const info = await screen.findByTestId('message-base-info', undefined, { timeout: 3000 });
    expect(screen.getByTestId('message-kind').textContent).toBe('Transactional');
    expect(info.textContent).toContain('Scheduled for');
    expect(within(info).getByText('Scheduled for').closest('tr')!.querySelector('time')!.getAttribute('datetime')).toBe(IN_A_DAY);
    // Not sent yet and never clicked: those rows read a dash, as every empty row does.
    const cellOf = (label: string) => within(info).getByText(label).closest('tr')!.querySelector('td')!.textContent;
    expect([cellOf('Sent'), cellOf('First click')]).toEqual(['—', '—']);
    await waitFor(() => expect(screen.getByTestId('message-api-key').textContent).toBe('Web app (production)'));
    await waitFor(() => expect(screen.getByTestId('message-category').textContent).toBe('Account'));
    expect(screen.getByTestId('message-category').querySelector('a')!.getAttribute('href')).toBe('/subscription/update/6');
    const detail = (name: string) => {
      const row = screen.getByTestId(`send-detail-${name}`);
      return [row.querySelector('th')!.lastChild!.textContent, row.querySelector('td')!.textContent];
    };
    expect(detail('cc')).toEqual(['Cc', 'support@acme.test, audit@acme.test']);
    expect(detail('bcc')).toEqual(['Bcc', 'archive@acme.test']);
    expect(detail('reply_to')).toEqual(['Reply-to', 'help@acme.test']);
    const rows = within(screen.getByTestId('message-metadata'))
      .getAllByTestId('message-metadata-row')
      .map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['user_id', 'u-829'],
      ['flow', 'password-reset'],
    ]);
    expect(screen.queryByTestId('message-sandbox')).toBeNull();
  });

  it('says a sandbox message was never delivered, and shows only what it has', async () => {
    const api = messagesApi();
    renderApp(api, { path: '/message/view/22', signedIn: true });
    const notice = await screen.findByTestId('message-sandbox', undefined, { timeout: 3000 });
    expect(notice.textContent).toContain('Sent with a test key: recorded as sent, never delivered');
    // Key 9 is not in the organisation's list (deleted): named by its id.
    await keyListAnswered(api);
    expect(screen.getByTestId('message-api-key').textContent).toBe('Key #9');
    expect(screen.queryByTestId('send-detail-cc')).toBeNull();
    expect(screen.queryByTestId('send-detail-bcc')).toBeNull();
    expect(screen.queryByTestId('send-detail-reply_to')).toBeNull();
    expect(screen.queryByTestId('message-category')).toBeNull();
    expect(screen.queryByTestId('message-metadata')).toBeNull();
    expect(screen.getByTestId('message-base-info').textContent).not.toContain('Scheduled for');
  });

  it('names the key "Key #<id>" when the key list cannot be read', async () => {
    const api = messagesApi({ keys: 403 });
    renderApp(api, { path: '/message/view/21', signedIn: true });
    await keyListAnswered(api);
    expect(screen.getByTestId('message-api-key').textContent).toBe('Key #3');
    // The rest of the message is shown all the same, and the refusal is not asked again and again.
    expect(within(screen.getByTestId('message-metadata')).getAllByTestId('message-metadata-row')).toHaveLength(2);
    expect(api.calls.filter((c) => c.url.includes('/organization-api-key'))).toHaveLength(1);
  });

  it("shows a broadcast's message none of it", async () => {
    const api = messagesApi();
    renderApp(api, { path: '/message/view/23', signedIn: true });
    await screen.findByTestId('message-base-info', undefined, { timeout: 3000 });
    expect(screen.getByTestId('message-kind').textContent).toBe('Broadcast');
    for (const id of ['message-send-details', 'message-api-key', 'message-metadata', 'message-sandbox']) expect(screen.queryByTestId(id)).toBeNull();
    expect(api.calls.some((c) => c.url.includes('/organization-api-key'))).toBe(false);
  });
});
