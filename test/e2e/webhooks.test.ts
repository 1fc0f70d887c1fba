import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, byId, eventually, signIn } from './console';
import { TOO_SOON_MS } from '../../src/shared/contracts/tracking';

// Webhooks end to end (issue 38): a broadcast of this file's own goes out through the mail catcher; one recipient
// reads it like a person (a desktop browser, after the classifier's "too soon" window), a link scanner fetches the
// other's (headless Chromium's own user agent), the reader unsubscribes through the page. The seeded organisation's
// endpoint on the local webhook catcher takes every event: each of ours arrives there signed (the catcher verifies
// the Standard Webhooks signature with the endpoint's secret), the console's deliveries log shows them delivered, and
// "Replay" on a row sends the same event again with the same webhook-id and a newer timestamp.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const webhookUrl = inject('webhookUrl');
const RUN = Date.now().toString(36);
const OFFER = `${mailUrl}/?webhook-offer=${RUN}`;
const PEOPLE = {
  reader: { name: `Rita Reader ${RUN}`, email: `rita.${RUN}@hooks.test` },
  scanned: { name: `Sam Scanned ${RUN}`, email: `sam.${RUN}@hooks.test` },
};
const DESKTOP_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

interface StreamEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { message?: { id: number; broadcast_id: number | null; to: string } };
}
interface CaughtRequest {
  webhookId: string | null;
  verdict: string;
  verdictDetail: string | null;
  answered: number;
  headers: Record<string, string>;
  body: unknown;
}
/** One event as the catcher got it, with the request that carried it (an endpoint taking batches sends arrays). */
interface Caught {
  event: StreamEvent;
  request: CaughtRequest;
}

const caught = async (): Promise<Caught[]> => {
  const { items } = (await (await fetch(`${webhookUrl}/api/requests`)).json()) as { items: CaughtRequest[] };
  return items.flatMap((request) => (Array.isArray(request.body) ? request.body : [request.body]).map((event) => ({ event: event as StreamEvent, request })));
};

type Mail = { to: unknown; html?: string; headers?: Record<string, string> };
const mailFor = async (email: string): Promise<Mail[]> =>
  ((await (await fetch(`${mailUrl}/messages.json`)).json()) as Mail[]).filter((m) => JSON.stringify(m.to).includes(email));
const trackingUrl = (html: string, kind: 'o' | 'c') =>
  [...html.matchAll(/(?:href|src)="(http[^"]+\/t\/([oc])\/[^"]+)"/g)].filter((m) => m[2] === kind).map((m) => m[1].replace(/&amp;/g, '&'));
/** The offer link's click redirect (not the hidden honeypot link beside it). */
const offerLink = (html: string) => trackingUrl(html, 'c').find((url) => !html.includes(`${url}" style="display:none`))!;

describe('webhooks (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;
  /** The seeded endpoint on the catcher (found by the first test). */
  let endpointId = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("delivers a broadcast's sent, opened, clicked and unsubscribed events signed; the deliveries log shows them; Replay sends one again", async () => {
    await signIn(page, baseUrl);
    const endpoints = await apiFromPage<{ items: { id: number; url: string; event_types: string[]; enabled: boolean }[] }>(page, 'GET', '/webhooks');
    const endpoint = endpoints.body.items.find((e) => e.url.startsWith(webhookUrl));
    expect(endpoint, 'the seeded endpoint on the webhook catcher').toBeDefined();
    expect(endpoint).toMatchObject({ event_types: ['*'], enabled: true });
    endpointId = endpoint!.id;

    // A broadcast of its own: its own tag, contacts, template, subscription; nothing another file sends to.
    const tag = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: `Hooked ${RUN}` })).body.data.id;
    const contactIds: Record<keyof typeof PEOPLE, number> = { reader: 0, scanned: 0 };
    for (const [key, person] of Object.entries(PEOPLE) as [keyof typeof PEOPLE, (typeof PEOPLE)['reader']][]) {
      const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/contact', {
        name: person.name,
        addresses: [{ type: 'email', value: person.email }],
        tags: [tag],
      });
      expect(created.status).toBe(201);
      contactIds[key] = created.body.data.id;
    }
    const template = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/template', {
      type: 'email',
      name: `Hooked ${RUN}`,
      subject: 'News for {{ contact.name }}',
      body: `<p>Hello {{ contact.name }}, see <a href="${OFFER}">the offer</a>.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`,
    });
    expect(template.status).toBe(201);
    const subscription = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/subscription', { name: `Hooked ${RUN}` })).body.data.id;
    const senders = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100')).body.items;
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
      name: `Hooked ${RUN}`,
      type: 'email',
      sender_id: senders.find((s) => s.type === 'email')!.id,
      template_id: template.body.data.id,
      subscription_id: subscription,
      contacts: { filter: { tags: [tag] } },
    });
    expect(created.status).toBe(201);
    const broadcastId = created.body.data.id;
    await eventually(
      async () => (await apiFromPage<{ data: { status: string } }>(page, 'GET', `/broadcast/${broadcastId}`)).body.data.status,
      'finished',
      60_000,
    );
    const messages = (await apiFromPage<{ items: { id: number; to_address: string }[] }>(page, 'GET', `/message?broadcast_id=${broadcastId}`)).body.items;
    const messageIds = {
      reader: messages.find((m) => m.to_address === PEOPLE.reader.email)!.id,
      scanned: messages.find((m) => m.to_address === PEOPLE.scanned.email)!.id,
    };
    const ours = async (type: string) =>
      (await caught()).filter(({ event }) => event.type === type && event.data.message?.broadcast_id === broadcastId && event.data.message.id > 0);

    // message.sent: one per message, each arriving with a good signature and answered 2xx.
    await eventually(async () => (await ours('message.sent')).map((c) => c.event.data.message!.id).sort(), Object.values(messageIds).sort(), 60_000);
    const sent = await ours('message.sent');
    for (const { event, request } of sent) {
      expect(request).toMatchObject({ webhookId: event.id, verdict: 'ok', answered: 204 });
      expect(event.data.message).toMatchObject({ broadcast_id: broadcastId, channel: 'email' });
    }
    await eventually(async () => (await mailFor(PEOPLE.scanned.email)).length + (await mailFor(PEOPLE.reader.email)).length, 2, 30_000);

    // A link scanner at delivery: headless Chromium's own user agent fetches the pixel and the offer link.
    const scannedHtml = (await mailFor(PEOPLE.scanned.email))[0].html ?? '';
    const scanner = await (await browser.newContext()).newPage();
    expect((await scanner.goto(trackingUrl(scannedHtml, 'o')[0]))?.status()).toBe(200);
    await scanner.goto(offerLink(scannedHtml));
    expect(scanner.url()).toBe(OFFER);
    await scanner.close();

    // The reader, a person: after the classifier's window for machines that fetch at delivery (measured from the
    // message's own message.sent event), a desktop browser opens the message and follows the offer link.
    const readerSentAt = Date.parse(sent.find((c) => c.event.data.message!.id === messageIds.reader)!.event.timestamp);
    await eventually(async () => Date.now() - readerSentAt > TOO_SOON_MS.click + 500, true, TOO_SOON_MS.click + 15_000);
    const readerMail = (await mailFor(PEOPLE.reader.email))[0];
    const readerHtml = readerMail.html ?? '';
    const reader = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_CHROME, locale: 'en-US' })).newPage();
    expect((await reader.goto(trackingUrl(readerHtml, 'o')[0]))?.status()).toBe(200);
    await reader.goto(offerLink(readerHtml));
    expect(reader.url()).toBe(OFFER);

    // Each message's open and click arrive signed, human as the tracking judged the hit (the message's hits).
    for (const type of ['message.opened', 'message.clicked'] as const) {
      await eventually(async () => (await ours(type)).map((c) => c.event.data.message!.id).sort(), Object.values(messageIds).sort(), 60_000);
    }
    const hits = [...(await ours('message.opened')), ...(await ours('message.clicked'))];
    for (const { event, request } of hits) expect(request).toMatchObject({ webhookId: event.id, verdict: 'ok', answered: 204 });
    const humanBy = (id: number) =>
      hits
        .filter((c) => c.event.data.message!.id === id)
        .map((c) => `${c.event.type} ${String(c.event.data.human)} ${String(c.event.data.class)}`)
        .sort();
    expect(humanBy(messageIds.reader)).toEqual(['message.clicked true human', 'message.opened true human']);
    expect(humanBy(messageIds.scanned)).toEqual(['message.clicked false scanner', 'message.opened false prefetch']);
    for (const [key, id] of Object.entries(messageIds)) {
      const engagement = await apiFromPage<{ data: { hits: { kind: string; class: string }[] } }>(page, 'GET', `/message/${id}/engagement`);
      const tracked = engagement.body.data.hits.map((h) => `message.${h.kind === 'click' ? 'clicked' : 'opened'} ${String(h.class === 'human')} ${h.class}`);
      expect(tracked.sort(), `${key}'s hits as the tracking lists them`).toEqual(humanBy(id));
    }
    const click = hits.find((c) => c.event.type === 'message.clicked' && c.event.data.message!.id === messageIds.reader)!;
    expect(click.event.data.url).toBe(OFFER);

    // The reader unsubscribes through the mail's link: contact.unsubscribed (recorded in D1, taken into the stream).
    const unsubscribeLink = /^<(.+)>$/.exec(readerMail.headers?.['list-unsubscribe'] ?? '')![1];
    await reader.goto(unsubscribeLink);
    await byId(reader, 'unsubscribe-confirm').click();
    await byId(reader, 'unsubscribe-done').waitFor();
    await reader.close();
    const unsubscribed = async () =>
      (await caught()).filter(({ event }) => event.type === 'contact.unsubscribed' && event.data.contact_id === contactIds.reader);
    await eventually(async () => (await unsubscribed()).length, 1, 60_000);
    const [unsubscribe] = await unsubscribed();
    expect(unsubscribe.request).toMatchObject({ webhookId: unsubscribe.event.id, verdict: 'ok', answered: 204 });
    expect(unsubscribe.event.data).toMatchObject({ subscription_id: subscription, message_id: messageIds.reader, broadcast_id: broadcastId });

    // The Webhooks screen lists the endpoint; its URL opens the deliveries log.
    await page.goto(`${baseUrl}/webhook`);
    const endpointRow = page.locator(`[data-testid="list-row"][data-id="${endpoint!.id}"]`);
    await endpointRow.waitFor();
    expect(await byId(endpointRow, 'endpoint-state').getAttribute('data-state')).toBe('active');
    await screenshot(page, 'webhooks');
    await endpointRow.getByText(endpoint!.url, { exact: true }).click();
    await page.waitForURL(`${baseUrl}/webhook/deliveries/${endpoint!.id}`);

    // The log shows each of our events delivered (it reads on load: read it again until the last one is in).
    const ourEvents = [...sent, ...hits, unsubscribe].map((c) => c.event);
    const deliveryRow = (eventId: string) => page.locator(`[data-testid="list-row"][data-id="${eventId}"]`);
    const states = async () => {
      await page.reload();
      await byId(page, 'webhook-deliveries-page').waitFor();
      await byId(page, 'list-row').first().waitFor();
      return Promise.all(
        ourEvents.map(
          async (e) =>
            `${e.type} ${(await deliveryRow(e.id).count()) ? await byId(deliveryRow(e.id), 'delivery-state').getAttribute('data-state') : 'missing'}`,
        ),
      );
    };
    await eventually(
      states,
      ourEvents.map((e) => `${e.type} delivered`),
      30_000,
    );
    await screenshot(page, 'webhook-deliveries');

    // Replay the reader's message.sent through the console: the same webhook-id again, signed afresh, newer timestamp.
    const replayed = sent.find((c) => c.event.data.message!.id === messageIds.reader)!;
    const deliveriesOf = async (webhookId: string) => (await caught()).filter((c) => c.request.webhookId === webhookId);
    const before = await deliveriesOf(replayed.event.id);
    expect(before.length).toBeGreaterThanOrEqual(1);
    const lastStamp = Math.max(...before.map((c) => Number(c.request.headers['webhook-timestamp'])));
    expect(lastStamp).toBeGreaterThan(0);
    // Timestamps are whole seconds: the last delivery is seconds old by now, and this says so before relying on it.
    await eventually(async () => Math.floor(Date.now() / 1000) > lastStamp, true);
    const row = deliveryRow(replayed.event.id);
    expect(await row.innerText()).toContain('message.sent');
    await byId(row, 'delivery-replay').click();
    await eventually(async () => (await deliveriesOf(replayed.event.id)).length, before.length + 1, 30_000);
    const again = (await deliveriesOf(replayed.event.id))[0]; // newest first
    expect(again.request).toMatchObject({ webhookId: replayed.event.id, verdict: 'ok', answered: 204 });
    expect(Number(again.request.headers['webhook-timestamp'])).toBeGreaterThan(lastStamp);
    expect(before.map((c) => c.request.headers['webhook-signature'])).not.toContain(again.request.headers['webhook-signature']);
    expect(again.event).toEqual(replayed.event);
    // The log shows the replayed row delivered again.
    await eventually(async () => {
      await page.reload();
      await row.waitFor();
      return byId(row, 'delivery-state').getAttribute('data-state');
    }, 'delivered');
  });
  it('shows the Webhooks screen and the deliveries log on a phone and in German', async () => {
    expect(endpointId).toBeGreaterThan(0);
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    const shots = async (target: Page, suffix: string, labels: { deliveries: string; replay: string }) => {
      await target.goto(`${baseUrl}/webhook`);
      await target.locator(`[data-testid="list-row"][data-id="${endpointId}"]`).waitFor();
      await screenshot(target, `webhooks-${suffix}`);
      await target.goto(`${baseUrl}/webhook/deliveries/${endpointId}`);
      const first = byId(target, 'list-row').first();
      await first.waitFor();
      expect(await byId(target, 'webhook-deliveries-page').getByRole('heading', { level: 2 }).innerText()).toBe(labels.deliveries);
      expect(await byId(first, 'delivery-replay').innerText()).toBe(labels.replay);
      // Nothing wider than the screen: the replay button of a row is within the viewport's width.
      const box = (await byId(first, 'delivery-replay').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(target.viewportSize()!.width);
      await screenshot(target, `webhook-deliveries-${suffix}`);
    };
    await shots(phone, 'phone', { deliveries: 'Deliveries', replay: 'Replay' });
    expect(await byId(phone, 'delivery-cards').count()).toBe(1);
    await byId(phone, 'language-switcher').selectOption({ label: 'Deutsch' });
    await eventually(() => byId(phone, 'delivery-replay').first().innerText(), 'Erneut senden');
    await shots(phone, 'phone-de', { deliveries: 'Zustellungen', replay: 'Erneut senden' });
    await page.goto(`${baseUrl}/webhook`);
    await byId(page, 'language-switcher').selectOption({ label: 'Deutsch' });
    await shots(page, 'de', { deliveries: 'Zustellungen', replay: 'Erneut senden' });
    await byId(page, 'language-switcher').selectOption({ label: 'English' });
    await eventually(() => byId(page, 'delivery-replay').first().innerText(), 'Replay');
    await phone.close();
  });
});
