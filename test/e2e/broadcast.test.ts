import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId, eventually, openInConsole, pickOptions, searchAndPick, signIn } from './console';

// A broadcast from the console, end to end through the real platform: the form (with its live recipient count),
// the Durable Object, the send queue, the SMTP transport into the local mail catcher, and the view moving to
// finished without a reload; then a message's content, a duplicate, and a scheduled broadcast cancelled.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const RUN = Date.now().toString(36);
const TAG = `Launch ${RUN}`;
const PEOPLE = ['Bea Broad', 'Cai Cast', 'Dee Deliver'].map((name, i) => ({ name, email: `${name.split(' ')[0].toLowerCase()}.${RUN}@bcast.test`, i }));
const NAME = `Launch news ${RUN}`;

type Caught = { to: unknown; subject?: string; text?: string; headers?: Record<string, string> };
const caught = async (): Promise<Caught[]> => (await fetch(`${mailUrl}/messages.json`)).json();

describe('broadcasts in the console (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;
  let broadcastId = 0;
  let tagId = 0;
  let templateName = '';
  let subscriptionName = '';

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in and prepares a tag of contacts, a template and a subscription of its own', async () => {
    await signIn(page, baseUrl);
    const tag = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: TAG });
    expect(tag.status).toBe(201);
    tagId = tag.body.data.id;
    for (const p of PEOPLE) {
      const contact = await apiFromPage(page, 'POST', '/contact', { name: p.name, addresses: [{ type: 'email', value: p.email }], tags: [tag.body.data.id] });
      expect(contact.status).toBe(201);
    }
    templateName = `Launch template ${RUN}`;
    const template = await apiFromPage(page, 'POST', '/template', {
      type: 'email',
      name: templateName,
      subject: 'Hi {{ contact.name }}',
      body: '<p>Dear {{ contact.name }}, we launched.</p>',
    });
    expect(template.status).toBe(201);
    subscriptionName = `Launches ${RUN}`;
    expect((await apiFromPage(page, 'POST', '/subscription', { name: subscriptionName })).status).toBe(201);
  });

  it('creates a broadcast to the tag: the form counts the recipients, then the view moves to finished without a reload', async () => {
    await byId(page, 'nav-broadcasts').click();
    await page.waitForURL(/\/broadcast$/);
    await byId(page, 'list-create').click();
    await page.waitForURL(/\/broadcast\/create$/);
    await byId(page, 'form-field-name').fill(NAME);
    await searchAndPick(page, byId(page, 'form-field-sender_id'), 'hello@', /hello@acme\.test/);
    await searchAndPick(page, byId(page, 'form-field-template_id'), 'Launch', templateName);
    await searchAndPick(page, byId(page, 'form-field-subscription_id'), '', subscriptionName);
    // Nothing chosen yet matches every contact; the tag narrows it to ours.
    await pickOptions(page, byId(page, 'form-field-tags'), [TAG], 'Launch');
    await eventually(() => byId(page, 'recipients-total').getAttribute('data-total'), String(PEOPLE.length), 20_000);
    expect(await byId(page, 'recipients-sample').innerText()).toContain(PEOPLE[0].email);
    await screenshot(page, 'broadcast-form');

    const created = apiResponse(page, 'POST', '/api/v1/broadcast');
    await byId(page, 'form-submit').click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    broadcastId = (await answer.json()).data.id;
    await page.waitForURL(new RegExp(`/broadcast/view/${broadcastId}$`));
    // Progress arrives over the live channel: no reload, no polling.
    await eventually(() => byId(page, 'broadcast-status').getAttribute('data-status'), 'finished', 60_000);
    expect(await byId(page, 'figure-sent').innerText()).toBe(String(PEOPLE.length));
    expect(await byId(page, 'figure-total').innerText()).toBe(String(PEOPLE.length));
    await screenshot(page, 'broadcast-view');
  });

  it('finds every message in the mail catcher, personalised, with the unsubscribe header', async () => {
    await eventually(async () => (await caught()).filter((m) => PEOPLE.some((p) => JSON.stringify(m.to).includes(p.email))).length, PEOPLE.length, 30_000);
    const mails = await caught();
    for (const p of PEOPLE) {
      const mail = mails.filter((m) => JSON.stringify(m.to).includes(p.email));
      expect(mail, p.email).toHaveLength(1);
      expect(mail[0].subject).toBe(`Hi ${p.name}`);
      expect(mail[0].text ?? '').toContain(`Dear ${p.name}, we launched.`);
      expect(mail[0].headers?.['list-unsubscribe'] ?? '').toMatch(/^<http:\/\/acme\.localhost:\d+\/unsubscribe\?m=/);
    }
  });

  it('lists the recipients and opens one message with its content rendered in a sandboxed frame', async () => {
    await byId(page, 'tab-recipients').click();
    await eventually(async () => (await byId(page, 'list-row').count()) >= PEOPLE.length, true);
    await screenshot(page, 'broadcast-recipients');
    await byId(byId(page, 'list-row').filter({ hasText: PEOPLE[1].email }), 'row-view').click();
    await page.waitForURL(/\/message\/view\/\d+$/);
    await byId(page, 'message-base-info').waitFor();
    expect(await byId(page, 'message-status').getAttribute('data-status')).toBe('sent');
    await byId(page, 'tab-content').click();
    const frame = byId(page, 'message-body-html');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(await frame.getAttribute('srcdoc')).toContain(`Dear ${PEOPLE[1].name}, we launched.`);
    await screenshot(page, 'message-view');
  });

  it('filters the message list by the broadcast', async () => {
    await page.goto(`${baseUrl}/message?broadcast_id=${broadcastId}`);
    await eventually(async () => (await byId(page, 'list-row').count()) === PEOPLE.length, true);
    expect(await byId(page, 'list-total').innerText()).toContain(String(PEOPLE.length));
    await screenshot(page, 'message-list');
  });

  it('duplicates the broadcast into the form', async () => {
    await page.goto(`${baseUrl}/broadcast`);
    await byId(byId(page, 'list-row').filter({ hasText: NAME }).first(), 'row-duplicate').click();
    await page.waitForURL(new RegExp(`/broadcast/create\\?source=${broadcastId}$`));
    await eventually(() => byId(page, 'form-field-name').inputValue(), `${NAME} (copy)`);
    await eventually(() => byId(page, 'recipients-total').getAttribute('data-total'), String(PEOPLE.length), 20_000);
  });

  it('schedules a copy a minute ahead (the button reads Schedule) and cancels it before it starts', async () => {
    await byId(page, 'form-field-immediate').click();
    const at = new Date(Date.now() + 60 * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await byId(page, 'form-field-delayed_at').fill(
      `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`,
    );
    expect((await byId(page, 'form-submit').innerText()).trim()).toBe('Schedule');
    const created = apiResponse(page, 'POST', '/api/v1/broadcast');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/broadcast\/view\/\d+$/);
    await eventually(() => byId(page, 'broadcast-status').getAttribute('data-status'), 'waiting');
    await byId(page, 'broadcast-cancel').click();
    const cancelled = apiResponse(page, 'POST', /\/cancel$/);
    await byId(page, 'confirm-ok').click();
    expect((await cancelled).status()).toBe(200);
    await eventually(() => byId(page, 'broadcast-status').getAttribute('data-status'), 'cancelled');
  });

  it('looks right on a phone and in German', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    for (const [path, name] of [
      ['/broadcast', 'broadcast-list'],
      ['/broadcast/create', 'broadcast-form'],
      [`/broadcast/view/${broadcastId}`, 'broadcast-view'],
      ['/message', 'message-list'],
    ] as const) {
      await phone.goto(`${baseUrl}${path}`);
      await phone.waitForLoadState('networkidle');
      await screenshot(phone, `${name}-phone`);
    }
    await byId(phone, 'language-switcher').selectOption({ label: 'Deutsch' });
    await phone.goto(`${baseUrl}/broadcast/view/${broadcastId}`);
    await eventually(async () => (await byId(phone, 'tab-base').innerText()).trim(), 'Grunddaten');
    await screenshot(phone, 'broadcast-view-phone-de');
    await page.goto(`${baseUrl}/broadcast`);
    await byId(page, 'language-switcher').selectOption({ label: 'Deutsch' });
    await eventually(async () => (await byId(page, 'nav-broadcasts').innerText()).trim(), 'Massenversand');
    await screenshot(page, 'broadcast-list-de');
    await phone.close();
  });
  it('never cuts a status badge on a phone, in any of the eight languages', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    const template = (await apiFromPage<{ items: { id: number; name: string }[] }>(phone, 'GET', `/template?search=${encodeURIComponent(templateName)}`)).body
      .items[0];
    const sender = (await apiFromPage<{ items: { id: number; type: string }[] }>(phone, 'GET', '/sender')).body.items.find((s) => s.type === 'email')!;
    const subscription = (
      await apiFromPage<{ items: { id: number; name: string }[] }>(phone, 'GET', `/subscription?search=${encodeURIComponent(subscriptionName)}`)
    ).body.items[0];
    const make = async (name: string, extra: Record<string, unknown>) => {
      const body = {
        name,
        type: 'email',
        sender_id: sender.id,
        template_id: template.id,
        subscription_id: subscription.id,
        contacts: { filter: { tags: [tagId] } },
      };
      const res = await apiFromPage<{ data: { id: number } }>(phone, 'POST', '/broadcast', { ...body, ...extra });
      expect(res.status).toBe(201);
      return res.body.data.id;
    };
    // Beside the finished and cancelled ones of the tests above: waiting (scheduled), sending and paused (one message an hour).
    const waiting = await make(`Badge waiting ${RUN}`, { delayed_at: new Date(Date.now() + 86_400_000).toISOString() });
    const sending = await make(`Badge sending ${RUN}`, { sleep: 3600 });
    const paused = await make(`Badge paused ${RUN}`, { sleep: 3600 });
    await eventually(async () => (await apiFromPage<{ data: { status: string } }>(phone, 'GET', `/broadcast/${paused}`)).body.data.status, 'sending', 30_000);
    expect((await apiFromPage(phone, 'POST', `/broadcast/${paused}/pause`)).status).toBe(200);
    // A label whose words are wider than its box is cut (Mantine's badge ends it with an ellipsis).
    type Box = { scrollWidth: number; clientWidth: number; textContent: string | null };
    type Badge = Box & { getAttribute(name: string): string | null; querySelector(selector: string): Box | null };
    const cutBadges = async () =>
      (
        await byId(phone, 'broadcast-status').evaluateAll((list) =>
          (list as unknown as Badge[]).map((badge) => {
            const label = badge.querySelector('.mantine-Badge-label') ?? badge;
            return { status: badge.getAttribute('data-status') ?? '', text: label.textContent ?? '', cut: label.scrollWidth > label.clientWidth + 1 };
          }),
        )
      ).map((b) => ({ ...b, where: phone.url() }));
    const seen = new Set<string>();
    const cut: string[] = [];
    // The list, and the view's header (the name, the badge and the actions share one line) of each status. The views
    // are opened inside the console (as its links do), a page load for each of 40 would be most of this test's time;
    // each is known by its own status, since the one before it is still on the page for a moment.
    const views: [number, string][] = [
      [waiting, 'waiting'],
      [sending, 'sending'],
      [paused, 'paused'],
      [broadcastId, 'finished'],
    ];
    for (const language of ['en', 'ru', 'de', 'pt', 'fr', 'ro', 'zh', 'es']) {
      await phone.goto(`${baseUrl}/broadcast`);
      await byId(phone, 'language-switcher').selectOption(language);
      await eventually(() => phone.evaluate<string>('document.documentElement.lang'), language);
      await byId(phone, 'broadcast-status').first().waitFor();
      const badges = await cutBadges();
      for (const [id, status] of views) {
        await openInConsole(phone, `/broadcast/view/${id}`);
        await phone.locator(`[data-testid="broadcast-overview"] [data-status="${status}"]`).waitFor();
        badges.push(...(await cutBadges()));
      }
      for (const b of badges) seen.add(b.status);
      cut.push(...badges.filter((b) => b.cut).map((b) => `${language} ${b.status} "${b.text}" on ${b.where}`));
      if (language === 'de') await screenshot(phone, 'broadcast-status-badges-phone-de');
    }
    expect(cut).toEqual([]);
    expect([...seen]).toEqual(expect.arrayContaining(['waiting', 'sending', 'paused', 'finished']));
    await byId(phone, 'language-switcher').selectOption('en');
    for (const id of [waiting, sending, paused]) await apiFromPage(phone, 'POST', `/broadcast/${id}/cancel`);
    await phone.close();
  });
});
