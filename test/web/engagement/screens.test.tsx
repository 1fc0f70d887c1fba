import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Broadcast } from '@shared/contracts/broadcast';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../fake-api';
import { json, mockFetch, type FetchCall } from '../helpers';
import { LOCALES } from '../all-locales';
import { renderApp } from '../render-app';

// The engagement screens in the whole console against a fake API: the broadcast's and the message's engagement tabs
// with people beside all hits, and a contact's opt-outs with the organisation's re-subscribe. (The public unsubscribe
// page is the worker's own html: test/worker/unsubscribe/page.test.ts, and the e2e engagement file.)

const NOW = '2026-11-01T10:00:00.000Z';
const M = 'signed.token';
const PAGE = {
  organization: { name: 'Acme Shop' },
  recipient: 'a•••@example.com',
  category: { id: 1, name: 'News' },
  categories: [
    { id: 1, name: 'News', subscribed: true },
    { id: 2, name: 'Offers', subscribed: true },
  ],
};

const BROADCAST = {
  id: 7,
  name: 'Launch',
  alias: null,
  note: null,
  type: 'email',
  status: 'finished',
  total: 3,
  recipients_final: true,
  sent: 3,
  failed: 0,
  skipped: 0,
  started_at: NOW,
  finished_at: NOW,
  paused_reason: null,
  held_until: null,
  expected_finish_at: null,
  updated_at: NOW,
  created_at: NOW,
  engagement: {
    opens: 9,
    opens_unique: 3,
    human_opens: 4,
    human_opens_unique: 2,
    clicks: 5,
    clicks_unique: 2,
    human_clicks: 2,
    human_clicks_unique: 1,
    unsubscribes: 1,
  },
  sender_id: 1,
  template_id: 3,
  subscription_id: 1,
  do_not_unsubscribe: false,
  skip_unsubscribed: true,
  track_opens: true,
  track_clicks: true,
  sleep: 0,
  delayed_at: null,
  immediate: true,
  contacts: { filter: { tags: [1] } },
  opens: 9,
  clicks: 5,
  unsubscribes: 1,
  sender: { id: 1, value: 'hello@acme.test', name: 'Acme' },
  template: { id: 3, name: 'News', type: 'email' },
  subscription: { id: 1, name: 'News' },
  actions: [],
} as unknown as Broadcast;

const MESSAGE = {
  id: 5,
  type: 'email',
  status: 'sent',
  to_address: 'ann@example.com',
  from_address: 'hello@acme.test',
  from_name: 'Acme',
  subject: 'Hi Ann',
  html: true,
  body: '<p>Hi</p>',
  body_plain: null,
  opens_total: 3,
  opens_unique: 1,
  opened_at: NOW,
  clicks_total: 1,
  clicks_unique: 1,
  clicked_at: NOW,
  human_opens: 1,
  human_opened_at: NOW,
  human_clicks: 1,
  human_clicked_at: NOW,
  delivery_status: null,
  delivery_error_code: null,
  attempts: 1,
  created_at: NOW,
  updated_at: NOW,
  broadcast_id: 7,
  contact_id: 9,
  external_id: 'x',
  error: null,
  sent_at: NOW,
  delayed_at: null,
  is_test: false,
  sender_id: 1,
  template_id: 3,
};

/** The fake API plus the engagement routes; records every call. */
function engagementApi(options: { pageStatus?: number; engagement?: Partial<Broadcast['engagement']> } = {}) {
  const base = fakeApi();
  let page = structuredClone(PAGE);
  let optOuts = [
    {
      subscription_id: 1,
      subscription_name: 'News',
      reason: 'too_frequent',
      comment: 'Twice a day',
      source: 'page',
      message_id: 5,
      broadcast_id: 7,
      created_at: NOW,
    },
  ];
  let suppressions = [
    { id: 4, type: 'email', value: 'ann@example.com', reason: 'bounce', info: 'Hard bounce 5.1.1 (message 77)', message_id: 77, created_at: NOW },
  ];
  const handle = (call: FetchCall): Response | null => {
    const url = new URL(call.url, 'http://acme.localhost');
    const path = url.pathname.replace('/api/v1', '');
    const body = (call.body ?? {}) as { m?: string; subscription_id?: number };
    if (path === '/unsubscribe' && call.method === 'GET') {
      if (options.pageStatus === 404 || url.searchParams.get('m') !== M)
        return json(404, { error: { code: 'link_invalid', message: 'This unsubscribe link is not valid' } });
      return json(200, { data: page });
    }
    if (path === '/unsubscribe' || path === '/unsubscribe/resubscribe') {
      const join = path.endsWith('resubscribe');
      page = { ...page, categories: page.categories.map((c) => (c.id === body.subscription_id ? { ...c, subscribed: join } : c)) };
      return json(200, { data: page });
    }
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/broadcast/7') return json(200, { data: { ...BROADCAST, engagement: { ...BROADCAST.engagement, ...options.engagement } } });
    if (path === '/broadcast/7/clicks')
      return json(200, { data: [{ link_index: 0, url: 'https://shop.example.com/a', clicks: 5, clicks_unique: 2, human_clicks: 2, human_clicks_unique: 1 }] });
    if (path === '/broadcast/7/unsubscribes')
      return json(200, {
        data: [
          { contact_id: 9, contact_name: 'Ann', subscription_name: 'News', reason: 'too_frequent', comment: 'Twice a day', source: 'page', created_at: NOW },
        ],
      });
    if (path === '/message/5') return json(200, { data: MESSAGE });
    if (path === '/message/6')
      return json(200, { data: { ...MESSAGE, id: 6, type: 'sms', html: false, subject: null, delivery_status: 'undelivered', delivery_error_code: '30003' } });
    if (path === '/message/5/engagement' || path === '/message/6/engagement')
      return json(200, {
        data: {
          links: path.includes('/5/') ? [{ link_index: 0, url: 'https://shop.example.com/a', clicks: 1, human_clicks: 1, first_clicked_at: NOW }] : [],
          hits: path.includes('/5/')
            ? [
                {
                  kind: 'click',
                  class: 'human',
                  reason: 'browser',
                  url: 'https://shop.example.com/a',
                  at: NOW,
                  user_agent: 'Mozilla/5.0',
                  as_organization: 'Example ISP',
                },
                {
                  kind: 'open',
                  class: 'prefetch',
                  reason: 'apple_privacy_proxy',
                  url: null,
                  at: NOW,
                  user_agent: 'Mozilla/5.0',
                  as_organization: 'Apple Inc.',
                },
              ]
            : [],
          unsubscribe: null,
        },
      });
    if (path === '/contact/9/unsubscribes' && call.method === 'GET')
      return json(200, { data: { unsubscribes: optOuts, sms_opt_outs: [{ phone: '+15550000001', keyword: 'STOP', created_at: NOW }], suppressions } });
    if (path === '/contact/9/suppressions/4' && call.method === 'DELETE') {
      suppressions = [];
      return new Response(null, { status: 204 });
    }
    if (path === '/contact/9/unsubscribes/1' && call.method === 'DELETE') {
      optOuts = [];
      return new Response(null, { status: 204 });
    }
    if (path === '/contact/9')
      return json(200, { data: { id: 9, name: 'Ann', note: null, addresses: [], tags: [], attributes: [], created_at: NOW, updated_at: NOW } });
    if (['/field', '/tag', '/dictionary/address-types', '/subscription', '/message'].includes(path))
      return json(200, { items: [], meta: { total: 0, page: 1, page_size: 100, total_pages: 0 } });
    return null;
  };
  const mock = mockFetch(
    async (call) =>
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) }),
  );
  const writes = () => mock.calls.filter((c) => c.method !== 'GET' && new URL(c.url, 'http://x').pathname.includes('unsubscribe'));
  return Object.assign(mock, { writes }) as unknown as ReturnType<typeof fakeApi> & { calls: FetchCall[]; writes: () => FetchCall[] };
}

describe('engagement in the console', () => {
  it("shows a broadcast's opens and clicks, people beside all hits, its links and its unsubscribes with reasons", async () => {
    renderApp(engagementApi(), { path: '/broadcast/view/7', signedIn: true });
    // One definition of an open: "Opened" is recipients judged a person, on the overview as on the engagement tab.
    expect((await screen.findByTestId('figure-opens', undefined, { timeout: 3000 })).textContent).toBe('2');
    expect(screen.getByTestId('figure-opens').parentElement!.textContent).toBe('Opened2');
    expect(screen.getByTestId('figure-clicks').textContent).toBe('1');
    fireEvent.click(await screen.findByTestId('tab-engagement', undefined, { timeout: 3000 }));
    const figures = await screen.findByTestId('broadcast-engagement-figures');
    // Opened and Clicked (recipients) come first, the hits after them, each labelled so.
    expect([...figures.querySelectorAll('tbody th')].map((th) => th.textContent)).toEqual(['Opened', 'Clicked', 'Open hits', 'Click hits']);
    expect(screen.getByTestId('opens-unique-people').textContent).toBe('2');
    expect((await screen.findByTestId('opens-people')).textContent).toBe('4');
    expect(screen.getByTestId('opens-all').textContent).toBe('9');
    expect(screen.getByTestId('clicks-unique-people').textContent).toBe('1');
    expect(figures.textContent).toContain('a click counts as an open');
    expect((await screen.findByTestId('broadcast-link')).textContent).toContain('https://shop.example.com/a');
    // "1 / 1" in the links table has its legend.
    expect(screen.getByTestId('broadcast-links-legend').textContent).toBe('Bold: people; after the slash: all, machines included.');
    const unsubscribe = await screen.findByTestId('broadcast-unsubscribe');
    expect(unsubscribe.textContent).toContain('Ann');
    expect(unsubscribe.textContent).toContain('News');
    expect(unsubscribe.textContent).toContain('Too many emails');
    expect(unsubscribe.textContent).toContain('Twice a day');
  });

  it("says beside the figures why Opened can count a person that Open hits does not, with the classifier's 3 seconds, in every language", async () => {
    // The case: a person clicked (Opened: 1) after a pixel load within 3 s of sending, judged a machine's (Open hits: 0).
    renderApp(engagementApi({ engagement: { human_opens: 0, human_opens_unique: 1, human_clicks: 1, human_clicks_unique: 1 } }), {
      path: '/broadcast/view/7',
      signedIn: true,
    });
    fireEvent.click(await screen.findByTestId('tab-engagement', undefined, { timeout: 3000 }));
    const figures = await screen.findByTestId('broadcast-engagement-figures');
    expect(screen.getByTestId('opens-unique-people').textContent).toBe('1');
    expect(screen.getByTestId('opens-people').textContent).toBe('0');
    // The legend stands with the two figures, and says the rule as the classifier applies it (TOO_SOON_MS.open).
    const legend = within(figures).getByTestId('opens-legend');
    expect(legend.textContent).toContain("a click judged a person's counts as an open");
    expect(legend.textContent).toContain('within 3 seconds of sending');
    for (const [code, strings] of Object.entries(LOCALES)) {
      const text = (strings.engagement as Record<string, string>).opensLegend;
      expect(text, code).toContain('{{seconds}}');
      if (code !== 'en') expect(text, code).not.toBe((LOCALES.en.engagement as Record<string, string>).opensLegend);
    }
  });

  it("shows a message's hits with how each was judged, and an SMS's delivery report with the provider's code", async () => {
    renderApp(engagementApi(), { path: '/message/view/5', signedIn: true });
    fireEvent.click(await screen.findByTestId('tab-engagement', undefined, { timeout: 3000 }));
    const hits = await screen.findAllByTestId('message-hit');
    expect(hits.map((h) => within(h).getByTestId('hit-class').getAttribute('data-class'))).toEqual(['human', 'prefetch']);
    expect(hits[1].textContent).toContain('Apple Mail Privacy Protection loads images ahead');
    expect(screen.getByTestId('opens-people').textContent).toBe('1');
    expect(screen.getByTestId('opens-all').textContent).toBe('3');
  });

  it("shows an SMS's delivery report with the provider's error code", async () => {
    renderApp(engagementApi(), { path: '/message/view/6', signedIn: true });
    const status = await screen.findByTestId('delivery-status', undefined, { timeout: 3000 });
    expect(status.getAttribute('data-status')).toBe('undelivered');
    expect(status.textContent).toContain('Provider error 30003');
  });

  it("lists a contact's unsubscribes and STOPs, and re-subscribes after a confirmation", async () => {
    const api = engagementApi();
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    const row = await screen.findByTestId('contact-unsubscribe', undefined, { timeout: 3000 });
    expect(row.textContent).toContain('News');
    expect(screen.getByTestId('contact-sms-opt-outs').textContent).toContain('+15550000001');
    fireEvent.click(within(row).getByTestId('contact-resubscribe'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/contact/9/unsubscribes/1'))).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('contact-unsubscribe')).toBeNull());
  });

  it("shows a contact's suppressed address with its reason and message, and lifts it after a confirmation", async () => {
    const api = engagementApi();
    renderApp(api, { path: '/contact/view/9', signedIn: true });
    const entry = await screen.findByTestId('contact-suppression', undefined, { timeout: 3000 });
    // Under the heading the README names.
    expect(within(screen.getByTestId('contact-bounces')).getByRole('heading').textContent).toBe('Bounces and complaints');
    expect(entry.textContent).toContain('ann@example.com');
    expect(within(entry).getByTestId('suppression-reason').textContent).toBe('Bounced');
    // The platform's own note stays out of the page (it is English); the message says what happened.
    expect(entry.textContent).not.toContain('Hard bounce 5.1.1');
    expect(within(entry).getByTestId('contact-suppression-message').getAttribute('href')).toBe('/message/view/77');
    fireEvent.click(within(entry).getByTestId('contact-suppression-lift'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE' && c.url.endsWith('/contact/9/suppressions/4'))).toBe(true));
    await waitFor(() => expect(screen.queryByTestId('contact-suppression')).toBeNull());
    expect(screen.getByTestId('contact-no-suppressions').textContent).toContain('No address of this contact is suppressed');
  });
});
