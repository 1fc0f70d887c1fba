import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, byId, eventually, signIn } from './console';

// The bounce loop on the real local platform (src/modules/bounce): a broadcast to hard-bounce@, soft-bounce@ and
// complaint@ addresses goes through the seeded SMTP integration into the mail catcher, with each message's signed
// bounce address as its envelope sender; the catcher answers like those mailboxes would (a delivery status
// notification, a spam report) at wrangler dev's email endpoint, and the worker's email handler records them.
const baseUrl = inject('baseUrl');
const RUN = Date.now().toString(36);

describe('bounces and complaints (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('records a hard bounce, a soft bounce and a complaint, and blacklists the hard bounce and the complaint', async () => {
    await signIn(page, baseUrl);
    // No tag: the shared organisation's tag list is another file's subject (its first page holds ten); the broadcast
    // picks these contacts by their addresses' run-unique domain.
    const addresses = { hard: `hard-bounce@${RUN}.test`, soft: `soft-bounce@${RUN}.test`, complaint: `complaint@${RUN}.test` };
    for (const [name, value] of Object.entries(addresses)) {
      const contact = await apiFromPage(page, 'POST', '/contact', { name: `${name} ${RUN}`, addresses: [{ type: 'email', value }] });
      expect(contact.status).toBe(201);
    }
    const senders = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100')).body.items;
    const templates = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/template?page_size=100')).body.items;
    const subscriptions = (await apiFromPage<{ items: { id: number }[] }>(page, 'GET', '/subscription?page_size=100')).body.items;
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
      name: `Bouncing ${RUN}`,
      type: 'email',
      sender_id: senders.find((s) => s.type === 'email')!.id,
      template_id: templates.find((t) => t.type !== 'text')!.id,
      subscription_id: subscriptions[0].id,
      contacts: { filter: { address: `@${RUN}.test` } },
    });
    expect(created.status).toBe(201);
    const statuses = async () => {
      const list = await apiFromPage<{ items: { to_address: string; delivery_status: string | null }[] }>(
        page,
        'GET',
        `/message?broadcast_id=${created.body.data.id}&page_size=10`,
      );
      return list.body.items.map((m) => `${m.to_address} ${m.delivery_status}`).sort();
    };
    await eventually(statuses, [`${addresses.complaint} complained`, `${addresses.hard} bounced`, `${addresses.soft} soft_bounced`], 60_000);

    const blacklist = await apiFromPage<{ items: { value: string; info: string }[] }>(page, 'GET', `/blacklist?search=${RUN}&page_size=10`);
    expect(blacklist.body.items.map((b) => b.value).sort()).toEqual([addresses.complaint, addresses.hard]);
    expect(blacklist.body.items.find((b) => b.value === addresses.hard)!.info).toMatch(/^Hard bounce 5\.1\.1 \(message \d+\)$/);

    // The message view shows the report.
    const messages = await apiFromPage<{ items: { id: number; to_address: string }[] }>(page, 'GET', `/message?broadcast_id=${created.body.data.id}`);
    const hard = messages.body.items.find((m) => m.to_address === addresses.hard)!;
    await page.goto(`${baseUrl}/message/view/${hard.id}`);
    await eventually(async () => (await byId(page, 'delivery-status').getAttribute('data-status')) ?? '', 'bounced');
    await screenshot(page, 'message-bounced');
  });
});
