import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { renderApp } from '../render-app';

// The broadcast and message screens in the whole console against a fake API: the form's live recipient count
// gating submit, the Schedule button, and a message's html shown in a sandbox where no script runs.

// Each page is a lazy chunk: the first test to open one would pay Vite's transform of its module graph (seconds on
// a loaded 2-core machine) inside its own time budget, and fail now and then. Loaded once before the tests instead.
beforeAll(async () => {
  await Promise.all([
    import('../../../web/src/features/broadcast/BroadcastFormPage'),
    import('../../../web/src/features/broadcast/BroadcastListPage'),
    import('../../../web/src/features/broadcast/BroadcastViewPage'),
    import('../../../web/src/features/message/MessageListPage'),
    import('../../../web/src/features/message/MessageViewPage'),
  ]);
});

const NOW = '2026-11-01T10:00:00.000Z';
const list = (items: unknown[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: 1 } });

const ENGAGEMENT = {
  opens: 0,
  opens_unique: 0,
  human_opens: 0,
  human_opens_unique: 0,
  clicks: 0,
  clicks_unique: 0,
  human_clicks: 0,
  human_clicks_unique: 0,
  unsubscribes: 0,
  bounces: 0,
  complaints: 0,
  undelivered: 0,
};
const BROADCAST = {
  name: 'Spring SMS',
  alias: null,
  note: null,
  sender_id: 2,
  template_id: 4,
  subscription_id: null,
  do_not_unsubscribe: true,
  skip_unsubscribed: true,
  track_opens: false,
  track_clicks: false,
  sleep: 0,
  contacts: { filter: {} },
  sender: { id: 2, value: '+15005550006', name: null },
  template: { id: 4, name: 'SMS text', type: 'text' },
  subscription: null,
  recipients_final: true,
  held_until: null,
  paused_reason: null,
  expected_finish_at: null,
  engagement: ENGAGEMENT,
  opens: 0,
  clicks: 0,
  unsubscribes: 0,
  created_at: NOW,
  updated_at: NOW,
};
/** An SMS broadcast cancelled after 2 of its 10 recipients: the other 8 skipped; one of the 2 sent was not delivered. */
const SMS_CANCELLED = {
  ...BROADCAST,
  engagement: { ...ENGAGEMENT, undelivered: 1 },
  id: 7,
  type: 'phone',
  status: 'cancelled',
  total: 10,
  sent: 2,
  failed: 0,
  skipped: 8,
  started_at: NOW,
  finished_at: NOW,
  delayed_at: null,
  immediate: true,
  actions: [],
};
/** A scheduled email broadcast, not started. */
const SCHEDULED = {
  ...SMS_CANCELLED,
  id: 8,
  name: 'Later',
  type: 'email',
  status: 'waiting',
  total: 0,
  sent: 0,
  skipped: 0,
  started_at: null,
  finished_at: null,
  delayed_at: '2026-12-24T09:00:00.000Z',
  immediate: false,
  actions: ['cancel'],
};

/** An email broadcast sending now: started, not finished, no alias or note. */
const RUNNING = {
  ...SMS_CANCELLED,
  id: 12,
  name: 'Autumn news',
  type: 'email',
  status: 'sending',
  total: 2000,
  sent: 400,
  skipped: 0,
  started_at: NOW,
  finished_at: null,
  expected_finish_at: null,
  actions: ['pause', 'cancel'],
};

/** An email broadcast's recipients: one delivered, one hard bounce, one spam report, one skipped. */
const EMAIL_RECIPIENTS = [
  ['ann@example.com', 'sent', 'sent', null, null],
  ['cat@example.com', 'sent', 'bounced', 'bounced', '550 5.1.1 Recipient address rejected: User unknown'],
  ['dan@example.com', 'sent', 'complained', 'complained', 'Reported as spam (abuse)'],
  ['', 'skipped', 'skipped', null, 'No email address'],
].map(([address, status, outcome, delivery, reason], i) => ({
  message_id: 81 + i,
  contact_id: 20 + i,
  contact_name: `Person ${i + 1}`,
  address,
  status,
  outcome,
  reason,
  sent_at: status === 'sent' ? NOW : null,
  delivery_status: delivery,
  delivery_error_code: delivery === 'bounced' ? '5.1.1' : null,
}));

/** The message list: a delivered email, a hard bounce and an SMS the carrier did not deliver. */
const LISTED_MESSAGES = [
  ['ann@example.com', 'email', 'sent', null],
  ['cat@example.com', 'email', 'bounced', 'bounced'],
  ['+15550000099', 'sms', 'undelivered', 'undelivered'],
].map(([to_address, type, outcome, delivery_status], i) => ({
  id: 91 + i,
  type,
  status: 'sent',
  outcome,
  delivery_status,
  delivery_error_code: null,
  to_address,
  subject: null,
  external_id: null,
  sent_at: NOW,
  created_at: NOW,
}));

function broadcastsApi(options: { matching: number }) {
  const base = fakeApi();
  const previews: unknown[] = [];
  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/sender')
      return list([
        { id: 1, type: 'email', value: 'hello@acme.test', name: 'Acme' },
        { id: 2, type: 'phone', value: '+15005550006', name: null },
      ]);
    if (path === '/template')
      return list([
        { id: 3, type: 'email', name: 'News' },
        { id: 4, type: 'text', name: 'SMS text' },
      ]);
    if (path === '/subscription' || path === '/field') return list([]);
    if (path === '/broadcast/7') return json(200, { data: SMS_CANCELLED });
    if (path === '/broadcast/12') return json(200, { data: RUNNING });
    if (path === '/broadcast/1') return json(200, { data: { ...SMS_CANCELLED, id: 1, type: 'email', name: 'Spring sale' } });
    if (path === '/contact/9')
      return json(200, { data: { id: 9, name: 'Ann Lee', note: null, addresses: [], tags: [], attributes: [], created_at: NOW, updated_at: NOW } });
    if (path === '/broadcast') return list([SMS_CANCELLED, SCHEDULED]);
    if (path === '/message') {
      const outcome = new URL(call.url, 'http://acme.localhost').searchParams.get('outcome');
      return list(LISTED_MESSAGES.filter((m) => !outcome || m.outcome === outcome));
    }
    if (path === '/broadcast/1/recipients') {
      const outcome = new URL(call.url, 'http://acme.localhost').searchParams.get('outcome');
      return list(EMAIL_RECIPIENTS.filter((r) => !outcome || r.outcome === outcome));
    }
    if (path === '/broadcast/7/recipients')
      return list([
        {
          message_id: 71,
          contact_id: 9,
          contact_name: 'Ann',
          address: '+15550000001',
          status: 'sent',
          reason: null,
          sent_at: NOW,
          delivery_status: 'delivered',
          delivery_error_code: null,
        },
        {
          message_id: 72,
          contact_id: 10,
          contact_name: 'Bob',
          address: '+15550000099',
          status: 'sent',
          reason: null,
          sent_at: NOW,
          delivery_status: 'undelivered',
          delivery_error_code: '30003',
        },
        {
          message_id: 73,
          contact_id: 11,
          contact_name: 'Cat',
          address: '+15550000003',
          status: 'skipped',
          reason: 'cancelled',
          sent_at: null,
          delivery_status: null,
          delivery_error_code: null,
        },
      ]);
    if (path === '/broadcast/preview') {
      previews.push(call.body);
      return json(200, {
        data: {
          total: options.matching,
          skipped: 0,
          sample: options.matching ? [{ id: 9, name: 'Ann', address: 'ann@example.com', skipped_reason: null }] : [],
        },
      });
    }
    if (path === '/message/5')
      return json(200, {
        data: {
          id: 5,
          type: 'email',
          status: 'sent',
          to_address: 'ann@example.com',
          from_address: 'hello@acme.test',
          from_name: 'Acme',
          subject: 'Hi Ann',
          html: true,
          body: '<p>Hi Ann</p><script>window.ran = true</script>',
          body_plain: null,
          opens_total: 0,
          opens_unique: 0,
          clicks_total: 0,
          clicks_unique: 0,
          attempts: 1,
          created_at: NOW,
          updated_at: NOW,
          broadcast_id: 1,
          contact_id: 9,
          external_id: 'relay-5@acme.test',
          error: null,
          sent_at: NOW,
          clicked_at: null,
          delayed_at: null,
          is_test: false,
          sender_id: 1,
          template_id: 3,
        },
      });
    return null;
  };
  const mock = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  return { ...mock, previews } as unknown as ReturnType<typeof fakeApi> & { previews: unknown[] };
}

describe('broadcast form', () => {
  it('keeps submit disabled while no contact matches, and reads Schedule when not immediate', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/create', signedIn: true });
    const submit = await screen.findByTestId('form-submit', undefined, { timeout: 3000 });
    await waitFor(() => expect(screen.getByTestId('recipients-total').getAttribute('data-total')).toBe('0'), { timeout: 3000 });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    expect(submit.textContent).toBe('Create');
    fireEvent.click(screen.getByTestId('form-field-immediate'));
    expect(await screen.findByTestId('form-field-delayed_at')).toBeTruthy();
    expect(screen.getByTestId('form-submit').textContent).toBe('Schedule');
    // do_not_unsubscribe hides the subscription choice.
    expect(screen.getByTestId('form-field-subscription_id')).toBeTruthy();
    fireEvent.click(screen.getByTestId('form-field-do_not_unsubscribe'));
    await waitFor(() => expect(screen.queryByTestId('form-field-subscription_id')).toBeNull());
  });

  it('enables submit once the preview counts recipients, and shows a sample', async () => {
    const api = broadcastsApi({ matching: 3 });
    renderApp(api, { path: '/broadcast/create', signedIn: true });
    await waitFor(() => expect(screen.getByTestId('recipients-total').getAttribute('data-total')).toBe('3'), { timeout: 3000 });
    expect(screen.getByTestId('recipients-sample').textContent).toContain('ann@example.com');
    expect((screen.getByTestId('form-submit') as HTMLButtonElement).disabled).toBe(false);
    expect((api as unknown as { previews: unknown[] }).previews[0]).toMatchObject({ type: 'email', contacts: { filter: { skip_unsubscribed: true } } });
  });
});

describe('message view', () => {
  it('names the broadcast and the contact of a message, linked, instead of their ids', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/message/view/5', signedIn: true });
    const info = await screen.findByTestId('message-base-info', undefined, { timeout: 3000 });
    await waitFor(() => expect(info.textContent).toContain('Spring sale'));
    await waitFor(() => expect(info.textContent).toContain('Ann Lee'));
    expect(screen.getByText('Spring sale').closest('a')?.getAttribute('href')).toBe('/broadcast/view/1');
    expect(info.textContent).not.toContain('#1');
  });

  it('shows an html message in a sandboxed frame: no script runs', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/message/view/5', signedIn: true });
    fireEvent.click(await screen.findByTestId('tab-content', undefined, { timeout: 3000 }));
    const frame = await screen.findByTestId('message-body-html');
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Hi Ann</p>');
    expect((window as unknown as { ran?: boolean }).ran).toBeUndefined();
  });
});

describe('broadcast view and list', () => {
  it("draws what became of a cancelled broadcast's recipients, shows an SMS broadcast no opens or clicks, and its recipients' delivery reports", async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/view/7', signedIn: true });
    const overview = await screen.findByTestId('broadcast-overview', undefined, { timeout: 3000 });
    expect(overview.textContent).toContain('Spring SMS');
    // Sections, not one full bar: 20 % sent, 80 % skipped.
    const bar = screen.getByTestId('broadcast-progress');
    const sections = [...bar.querySelectorAll('[data-section]')].map((el) => [el.getAttribute('data-section'), el.getAttribute('data-share')]);
    expect(sections).toEqual([
      ['sent', '20'],
      ['failed', '0'],
      ['skipped', '80'],
    ]);
    expect(screen.getByTestId('figure-total').textContent).toBe('10');
    expect(screen.queryByTestId('figure-opens')).toBeNull();
    expect(screen.queryByTestId('figure-clicks')).toBeNull();
    expect(screen.queryByTestId('figure-unsubscribes')).toBeNull();

    fireEvent.click(screen.getByTestId('tab-recipients'));
    await waitFor(() => expect(screen.getAllByTestId('delivery-status')).toHaveLength(2), { timeout: 3000 });
    const reports = screen.getAllByTestId('delivery-status').map((el) => [el.getAttribute('data-status'), el.textContent]);
    expect(reports).toEqual([
      ['delivered', 'Delivered'],
      ['undelivered', expect.stringContaining('30003')],
    ]);
    // Its figures are its history: the recipients whose message is gone are said to be, not silently missing.
    expect((await screen.findByTestId('recipients-gone')).textContent).toBe(
      'Not listed here: 7 of the 10 recipients (their messages were deleted, or archived past the retention). The figures above still count them.',
    );
  });

  it('shows an SMS broadcast its Undelivered figure, the count of the recipients filter of that name', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/view/7', signedIn: true });
    const figure = await screen.findByTestId('figure-undelivered', undefined, { timeout: 3000 });
    expect(figure.textContent).toBe('1');
    expect(figure.parentElement?.textContent).toBe('Undelivered1');
    // An SMS has no bounce address: its reports are the carrier's, not bounces or spam reports.
    expect(screen.queryByTestId('figure-bounces')).toBeNull();
    expect(screen.queryByTestId('figure-complaints')).toBeNull();
  });

  it('shows an email broadcast no Undelivered figure: its reports are bounces and spam reports', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/view/12', signedIn: true });
    await screen.findByTestId('figure-bounces', undefined, { timeout: 3000 });
    expect(screen.queryByTestId('figure-undelivered')).toBeNull();
  });

  it('shows a running broadcast only the times and settings that have a value: no empty "Finished:", alias or note', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/view/12', signedIn: true });
    const times = await screen.findByTestId('broadcast-times', undefined, { timeout: 3000 });
    expect(screen.getByTestId('started-at').textContent).toMatch(/^Started: \S/);
    expect(screen.queryByTestId('finished-at')).toBeNull();
    expect(times.textContent).not.toContain('Finished');
    // The trail follows the navigation: Broadcasts is an entry of its own.
    expect(screen.getByTestId('breadcrumbs').textContent).toBe('Broadcasts/Autumn news');
    fireEvent.click(screen.getByTestId('tab-base'));
    const info = await screen.findByTestId('broadcast-base-info');
    expect(info.textContent).not.toContain('—');
    expect(screen.queryByTestId('base-alias')).toBeNull();
    expect(screen.queryByTestId('base-note')).toBeNull();
    expect(screen.getByTestId('base-name').textContent).toContain('Autumn news');
  });

  it("shows a bounce and a spam report as the recipient's status, each its own colour, and keeps them in view on a phone", async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast/view/1', signedIn: true });
    fireEvent.click(await screen.findByTestId('tab-recipients', undefined, { timeout: 3000 }));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(4), { timeout: 3000 });
    // The status column: one chip per row (the phone's copy under the contact is the other).
    const chips = screen.getAllByTestId('list-row').map((row) => {
      const [compact, column] = within(row).getAllByTestId('message-status');
      expect(compact.closest('[data-testid="recipient-compact"]')).not.toBeNull();
      expect(column.closest('[data-testid="recipient-compact"]')).toBeNull();
      return [column.getAttribute('data-status'), column.textContent, column.getAttribute('style') ?? ''];
    });
    expect(chips.map(([status, text]) => [status, text])).toEqual([
      ['sent', 'Sent'],
      ['bounced', 'Bounced'],
      ['complained', 'Reported as spam'],
      ['skipped', 'Skipped'],
    ]);
    // Each its own colour: no bounce or complaint in the green of "Sent".
    const colours = chips.map(([, , style]) => /--badge-color: var\(--mantine-color-(\w+)/.exec(style ?? '')?.[1] ?? style);
    expect(new Set(colours).size).toBe(4);
    expect(colours[0]).toContain('green');
    expect(colours[1]).not.toContain('green');
    expect(colours[2]).not.toContain('green');

    // On a phone the status and the reason ride under the contact, shown below the sm breakpoint only.
    const compact = within(screen.getAllByTestId('list-row')[1]).getByTestId('recipient-compact');
    expect(compact.className).toContain('mantine-hidden-from-sm');
    expect(compact.textContent).toContain('cat@example.com');
    expect(compact.textContent).toContain('Bounced');
    expect(within(compact).getByTestId('recipient-compact-reason').textContent).toContain('5.1.1');
  });

  it('filters the recipients by the status a person reads: Bounced asks the API for ?outcome=bounced', async () => {
    const api = broadcastsApi({ matching: 0 });
    renderApp(api, { path: '/broadcast/view/1', signedIn: true });
    fireEvent.click(await screen.findByTestId('tab-recipients', undefined, { timeout: 3000 }));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(4), { timeout: 3000 });
    fireEvent.click(screen.getByTestId('filter-outcome'));
    fireEvent.click(await screen.findByRole('option', { name: 'Bounced', hidden: true }));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(1), { timeout: 3000 });
    expect(api.calls.some((c) => c.url.includes('/broadcast/1/recipients') && c.url.includes('outcome=bounced'))).toBe(true);
  });

  it('lists a bounced email and an undelivered SMS as such, and its status filter asks for ?outcome=', async () => {
    const api = broadcastsApi({ matching: 0 });
    renderApp(api, { path: '/message', signedIn: true });
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(3), { timeout: 3000 });
    const shown = screen.getAllByTestId('list-row').map((row) => {
      const chips = within(row).getAllByTestId('message-status');
      return [chips[0].getAttribute('data-status'), chips.at(-1)!.textContent];
    });
    expect(shown).toEqual([
      ['sent', 'Sent'],
      ['bounced', 'Bounced'],
      ['undelivered', 'Undelivered'],
    ]);
    fireEvent.click(screen.getByTestId('filter-outcome'));
    fireEvent.click(await screen.findByRole('option', { name: 'Undelivered', hidden: true }));
    await waitFor(() => expect(screen.getAllByTestId('list-row')).toHaveLength(1), { timeout: 3000 });
    expect(api.calls.some((c) => new URL(c.url, 'http://x').pathname.endsWith('/message') && c.url.includes('outcome=undelivered'))).toBe(true);
  });

  it('shows a scheduled broadcast as scheduled, not started', async () => {
    renderApp(broadcastsApi({ matching: 0 }), { path: '/broadcast', signedIn: true });
    const scheduled = await screen.findByTestId('broadcast-scheduled', undefined, { timeout: 3000 });
    expect(scheduled.textContent).toContain('Scheduled for');
    expect(screen.getAllByTestId('broadcast-scheduled')).toHaveLength(1);
  });
});
