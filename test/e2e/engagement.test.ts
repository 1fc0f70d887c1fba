import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, byId, eventually, signIn } from './console';

// Engagement end to end through the real platform: a broadcast goes out through the SMTP transport into the mail
// catcher; a recipient's browser loads the caught message's open pixel and follows a link (the events queue
// counts them) while the console's broadcast view shows the figures move without a reload; the recipient follows
// the unsubscribe link, gives a reason, and the next broadcast to that subscription skips them. Then an SMS
// broadcast through the SMS catcher, whose signed delivery receipts and a STOP reply reach the worker.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const smsUrl = inject('smsUrl');
const RUN = Date.now().toString(36);
// The offer's page: any real page on this machine will do (the mail catcher's list).
const OFFER = `${mailUrl}/?offer=${RUN}`;
const PEOPLE = ['Eve Engaged', 'Fay Faithful'].map((name) => ({ name, email: `${name.split(' ')[0].toLowerCase()}.${RUN}@engage.test` }));
const PHONES = { ok: `+1555${RUN.slice(-4).replace(/\D/g, '7').padStart(4, '7')}01`, lost: `+1555${RUN.slice(-4).replace(/\D/g, '7').padStart(4, '7')}99` };

const DESKTOP_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Caught = { to: unknown; html?: string; headers?: Record<string, string> };
const mailFor = async (email: string): Promise<Caught[]> =>
  ((await (await fetch(`${mailUrl}/messages.json`)).json()) as Caught[]).filter((m) => JSON.stringify(m.to).includes(email));
const trackingUrl = (html: string, kind: 'o' | 'c') =>
  [...html.matchAll(/(?:href|src)="(http[^"]+\/t\/([oc])\/[^"]+)"/g)].filter((m) => m[2] === kind).map((m) => m[1].replace(/&amp;/g, '&'));

describe('engagement (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;
  let tagId = 0;
  let subscriptionId = 0;
  let templateId = 0;
  let firstId = 0;

  const broadcast = async (name: string) => {
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
      name,
      type: 'email',
      sender_id: await senderId('email'),
      template_id: templateId,
      subscription_id: subscriptionId,
      contacts: { filter: { tags: [tagId] } },
    });
    expect(created.status).toBe(201);
    return created.body.data.id;
  };
  const senderId = async (type: 'email' | 'phone') =>
    (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100')).body.items.find((s) => s.type === type)!.id;
  const broadcastRow = async (id: number) =>
    (await apiFromPage<{ data: { status: string; sent: number; skipped: number } }>(page, 'GET', `/broadcast/${id}`)).body.data;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a broadcast with a link: the caught email carries the pixel and the click redirect, not for the unsubscribe link', async () => {
    await signIn(page, baseUrl);
    tagId = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: `Engaged ${RUN}` })).body.data.id;
    for (const p of PEOPLE)
      expect((await apiFromPage(page, 'POST', '/contact', { name: p.name, addresses: [{ type: 'email', value: p.email }], tags: [tagId] })).status).toBe(201);
    const template = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/template', {
      type: 'email',
      name: `Offer ${RUN}`,
      subject: 'An offer for {{ contact.name }}',
      body: `<p>Hello {{ contact.name }}, see <a href="${OFFER}">our offer</a>.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`,
    });
    templateId = template.body.data.id;
    subscriptionId = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/subscription', { name: `Offers ${RUN}` })).body.data.id;
    firstId = await broadcast(`Offer ${RUN}`);
    await eventually(async () => (await broadcastRow(firstId)).status, 'finished', 60_000);
    await eventually(async () => (await mailFor(PEOPLE[0].email)).length, 1, 30_000);
    const html = (await mailFor(PEOPLE[0].email))[0].html ?? '';
    expect(trackingUrl(html, 'o')).toHaveLength(1);
    // The offer link and the hidden honeypot are redirects; the unsubscribe link is left as it is.
    expect(trackingUrl(html, 'c')).toHaveLength(2);
    expect(html).not.toContain(`href="${OFFER}"`);
    expect(html).toMatch(/href="http:\/\/acme\.localhost:\d+\/unsubscribe\?m=/);
  });

  it("counts the recipient's open and click, and the console shows them move live: people beside all hits, and the link", async () => {
    await page.goto(`${baseUrl}/broadcast/view/${firstId}`);
    await byId(page, 'tab-engagement').click();
    await byId(page, 'broadcast-engagement').waitFor();
    expect(await byId(page, 'opens-all').innerText()).toBe('0');

    // Hits seconds after sending are machines' (link scanners fetch at delivery): a person reads a little later.
    await new Promise((r) => setTimeout(r, 10_500));
    const html = (await mailFor(PEOPLE[0].email))[0].html ?? '';
    // A person's browser (headless Chromium says "HeadlessChrome", which is rightly a machine's user agent).
    const recipient = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, userAgent: DESKTOP_CHROME })).newPage();
    const pixel = await recipient.goto(trackingUrl(html, 'o')[0]);
    expect(pixel?.status()).toBe(200);
    expect(pixel?.headers()['content-type']).toBe('image/gif');
    const offerLink = trackingUrl(html, 'c').find((url) => !html.includes(`${url}" style="display:none`))!;
    await recipient.goto(offerLink);
    expect(recipient.url()).toBe(OFFER);
    await recipient.close();

    // The events queue counts them; the view moves without a reload.
    await eventually(() => byId(page, 'opens-all').innerText(), '1', 30_000);
    await eventually(() => byId(page, 'clicks-all').innerText(), '1', 30_000);
    expect(await byId(page, 'opens-people').innerText()).toBe('1');
    expect(await byId(page, 'figure-opens').innerText()).toBe('1');
    expect(await byId(page, 'clicks-people').innerText()).toBe('1');
    await eventually(async () => (await byId(page, 'broadcast-link').count()) > 0, true);
    expect(await byId(page, 'broadcast-link').first().innerText()).toContain(OFFER);
    await screenshot(page, 'broadcast-engagement');

    // The message view lists each hit with how it was judged.
    const messages = await apiFromPage<{ items: { id: number; to_address: string }[] }>(page, 'GET', `/message?broadcast_id=${firstId}`);
    const eve = messages.body.items.find((m) => m.to_address === PEOPLE[0].email)!;
    await page.goto(`${baseUrl}/message/view/${eve.id}`);
    await byId(page, 'tab-engagement').click();
    await eventually(async () => (await byId(page, 'message-hit').count()) >= 2, true);
    expect(await byId(page, 'hit-class').evaluateAll((els) => els.map((e) => e.getAttribute('data-class')))).toEqual(['human', 'human']);
    await screenshot(page, 'message-engagement');
  });

  it('unsubscribes through the link in the email with a reason, and the next broadcast to that subscription skips the recipient', async () => {
    const mail = (await mailFor(PEOPLE[0].email))[0];
    const link = /^<(.+)>$/.exec(mail.headers?.['list-unsubscribe'] ?? '')![1];
    const recipient = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' })).newPage();
    await recipient.goto(link);
    await eventually(() => byId(recipient, 'unsubscribe-question').innerText(), `Unsubscribe from "Offers ${RUN}"?`);
    await screenshot(recipient, 'unsubscribe-page');
    await byId(recipient, 'unsubscribe-reason-not_relevant').click();
    await byId(recipient, 'unsubscribe-comment').fill('I buy elsewhere');
    await byId(recipient, 'unsubscribe-confirm').click();
    await byId(recipient, 'unsubscribe-done').waitFor();
    await screenshot(recipient, 'unsubscribe-done');
    await recipient.close();

    // The first broadcast's view counts it with the reason.
    await page.goto(`${baseUrl}/broadcast/view/${firstId}`);
    await byId(page, 'tab-engagement').click();
    const row = byId(page, 'broadcast-unsubscribe');
    await row.waitFor();
    expect(await row.innerText()).toContain('Not relevant to me');
    expect(await row.innerText()).toContain('I buy elsewhere');

    const next = await broadcast(`Offer again ${RUN}`);
    await eventually(
      async () => {
        const b = await broadcastRow(next);
        return { status: b.status, sent: b.sent, skipped: b.skipped };
      },
      { status: 'finished', sent: 1, skipped: 1 },
      60_000,
    );
    await eventually(async () => (await mailFor(PEOPLE[1].email)).length, 2, 30_000);
    expect(await mailFor(PEOPLE[0].email)).toHaveLength(1);

    // The contact's page shows the unsubscribe and can re-subscribe them.
    const contacts = await apiFromPage<{ items: { id: number; name: string }[] }>(page, 'GET', `/contact?search=${encodeURIComponent(PEOPLE[0].email)}`);
    await page.goto(`${baseUrl}/contact/view/${contacts.body.items[0].id}`);
    await byId(page, 'contact-unsubscribe').waitFor();
    await screenshot(page, 'contact-opt-outs');
  });

  it('shows the unsubscribe page in the browser language, on a phone, and a clear page for a broken link', async () => {
    const link = /^<(.+)>$/.exec((await mailFor(PEOPLE[1].email))[0].headers?.['list-unsubscribe'] ?? '')![1];
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'de-DE' })).newPage();
    await phone.goto(link);
    await eventually(() => byId(phone, 'unsubscribe-confirm').innerText(), 'Abmelden');
    await screenshot(phone, 'unsubscribe-page-phone-de');
    await phone.goto(`${link.slice(0, -4)}AAAA`);
    await byId(phone, 'unsubscribe-invalid').waitFor();
    expect(await byId(phone, 'unsubscribe-invalid').innerText()).toContain('Dieser Link funktioniert nicht');
    await screenshot(phone, 'unsubscribe-invalid-phone-de');
    await phone.close();
    // The same page at the other width in each language: a phone in English, a desktop in German.
    for (const [viewport, locale, name] of [
      [{ width: 390, height: 844 }, 'en-US', 'unsubscribe-page-phone-en'],
      [{ width: 1280, height: 900 }, 'de-DE', 'unsubscribe-page-de'],
    ] as const) {
      const other = await (await browser.newContext({ viewport, locale })).newPage();
      await other.goto(link);
      await byId(other, 'unsubscribe-confirm').waitFor();
      await screenshot(other, name);
      await other.close();
    }
  });

  it('shows SMS delivery receipts played by the SMS catcher, and a STOP reply is honoured', async () => {
    const tag = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: `Texted ${RUN}` })).body.data.id;
    for (const [name, phone] of [
      ['Gil Gets', PHONES.ok],
      ['Hal Lost', PHONES.lost],
    ]) {
      expect((await apiFromPage(page, 'POST', '/contact', { name: `${name} ${RUN}`, addresses: [{ type: 'phone', value: phone }], tags: [tag] })).status).toBe(
        201,
      );
    }
    const text = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/template', { type: 'text', name: `Text ${RUN}`, body: 'Hi {{ contact.name }}' }))
      .body.data.id;
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
      name: `Text ${RUN}`,
      type: 'phone',
      sender_id: await senderId('phone'),
      template_id: text,
      subscription_id: subscriptionId,
      contacts: { filter: { tags: [tag] } },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    await eventually(async () => (await broadcastRow(id)).status, 'finished', 60_000);
    type Row = { id: number; to_address: string; delivery_status: string | null; delivery_error_code: string | null };
    const rows = async () => (await apiFromPage<{ items: Row[] }>(page, 'GET', `/message?broadcast_id=${id}`)).body.items;
    await eventually(
      async () => (await rows()).map((m) => [m.to_address, m.delivery_status, m.delivery_error_code]).sort(),
      [
        [PHONES.ok, 'delivered', null],
        [PHONES.lost, 'undelivered', '30003'],
      ].sort(),
      30_000,
    );
    const lost = (await rows()).find((m) => m.to_address === PHONES.lost)!;
    await page.goto(`${baseUrl}/message/view/${lost.id}`);
    await eventually(() => byId(page, 'delivery-status').first().getAttribute('data-status'), 'undelivered');
    await screenshot(page, 'message-sms-delivery');

    // The recipient answers STOP from the catcher's page, as they would from their phone.
    const caught = (await (await fetch(`${smsUrl}/messages.json`)).json()) as { sid: string; to: string }[];
    const sms = caught.find((m) => m.to === PHONES.ok)!;
    const replied = await fetch(`${smsUrl}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sid: sms.sid, body: 'STOP' }),
    });
    expect(((await replied.json()) as { http_status: number }).http_status).toBe(200);
    const contacts = await apiFromPage<{ items: { id: number }[] }>(page, 'GET', `/contact?search=${encodeURIComponent(`Gil Gets ${RUN}`)}`);
    await page.goto(`${baseUrl}/contact/view/${contacts.body.items[0].id}`);
    await byId(page, 'contact-sms-opt-outs').waitFor();
    expect(await byId(page, 'contact-sms-opt-outs').innerText()).toContain(PHONES.ok);
  });

  it('looks right on a phone and in German: engagement tabs, opt-outs, tracking switches', async () => {
    const messages = await apiFromPage<{ items: { id: number; to_address: string }[] }>(page, 'GET', `/message?broadcast_id=${firstId}`);
    const eve = messages.body.items.find((m) => m.to_address === PEOPLE[0].email)!;
    const contacts = await apiFromPage<{ items: { id: number }[] }>(page, 'GET', `/contact?search=${encodeURIComponent(PEOPLE[0].email)}`);
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    const shots = async (target: Page, suffix: string) => {
      await target.goto(`${baseUrl}/broadcast/view/${firstId}`);
      await byId(target, 'tab-engagement').click();
      await byId(target, 'broadcast-unsubscribe').waitFor();
      await screenshot(target, `broadcast-engagement-${suffix}`);
      await target.goto(`${baseUrl}/message/view/${eve.id}`);
      await byId(target, 'tab-engagement').click();
      await byId(target, 'message-hit').first().waitFor();
      await screenshot(target, `message-engagement-${suffix}`);
      await target.goto(`${baseUrl}/contact/view/${contacts.body.items[0].id}`);
      await byId(target, 'contact-unsubscribe').waitFor();
      await screenshot(target, `contact-opt-outs-${suffix}`);
      await target.goto(`${baseUrl}/broadcast/create`);
      await byId(target, 'form-field-track_opens').waitFor();
      await screenshot(target, `broadcast-form-tracking-${suffix}`);
      await target.goto(`${baseUrl}/me/organization`);
      await byId(target, 'organization-track-opens').waitFor();
      await screenshot(target, `organization-tracking-${suffix}`);
    };
    await shots(phone, 'phone');
    await byId(phone, 'language-switcher').selectOption({ label: 'Deutsch' });
    await eventually(
      async () =>
        (await byId(phone, 'organization-track-opens').locator('xpath=ancestor::*[contains(@class,"mantine-Switch-root")]').innerText()).includes(
          'Öffnungen erfassen',
        ),
      true,
    );
    await shots(phone, 'phone-de');
    await byId(page, 'language-switcher').selectOption({ label: 'Deutsch' });
    await shots(page, 'de');
    await byId(page, 'language-switcher').selectOption({ label: 'English' });
    await phone.close();
  });
});
