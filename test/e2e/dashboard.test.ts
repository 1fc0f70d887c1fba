import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, byId, eventually, signIn } from './console';

// The signed-in home of the seeded organisation: its week in charts, moving without a reload while a broadcast
// sends (the live channel), on a desktop and a phone, in English and German.
const baseUrl = inject('baseUrl');
const RUN = Date.now().toString(36);

describe('the dashboard (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the charts, and a broadcast sent meanwhile moves the messages figure without a reload', async () => {
    await signIn(page, baseUrl);
    await byId(page, 'dashboard-charts').waitFor();
    const before = Number((await byId(page, 'dashboard-week-messages').innerText()).replace(/\D/g, ''));
    await screenshot(page, 'dashboard');
    // The navigation's edge runs the whole height of the page, past the window's (drawn by the main area).
    expect(await backgroundOf(page)).toMatch(/^linear-gradient/);

    const tag = (await apiFromPage<{ data: { id: number } }>(page, 'POST', '/tag', { name: `Charted ${RUN}` })).body.data.id;
    for (const name of ['Ida', 'Jon']) {
      const contact = await apiFromPage(page, 'POST', '/contact', {
        name: `${name} ${RUN}`,
        addresses: [{ type: 'email', value: `${name.toLowerCase()}.${RUN}@charts.test` }],
        tags: [tag],
      });
      expect(contact.status).toBe(201);
    }
    const senders = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100')).body.items;
    const templates = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/template?page_size=100')).body.items;
    const subscriptions = (await apiFromPage<{ items: { id: number }[] }>(page, 'GET', '/subscription?page_size=100')).body.items;
    const created = await apiFromPage(page, 'POST', '/broadcast', {
      name: `Charted ${RUN}`,
      type: 'email',
      sender_id: senders.find((s) => s.type === 'email')!.id,
      template_id: templates.find((t) => t.type !== 'text')!.id,
      subscription_id: subscriptions[0].id,
      contacts: { filter: { tags: [tag] } },
    });
    expect(created.status).toBe(201);
    await eventually(async () => Number((await byId(page, 'dashboard-week-messages').innerText()).replace(/\D/g, '')), before + 2, 60_000);
    await screenshot(page, 'dashboard-after-broadcast');
  });

  it('reads on a phone and in German', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    await byId(phone, 'dashboard-charts').waitFor();
    await screenshot(phone, 'dashboard-phone');
    // On a phone the navigation is a drawer: no edge down the screen's left side.
    expect(await backgroundOf(phone)).toBe('none');
    await byId(phone, 'language-switcher').selectOption({ label: 'Deutsch' });
    await eventually(async () => (await byId(phone, 'dashboard-chart-messages').innerText()).includes('Gesendete Nachrichten'), true);
    await screenshot(phone, 'dashboard-phone-de');
    await phone.close();
  });
});

/** The main area's computed background image (the navigation's edge is drawn there). */
const backgroundOf = (page: Page) =>
  page
    .locator('main')
    .evaluate((main) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } }).getComputedStyle(main).backgroundImage);
