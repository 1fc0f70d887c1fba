import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { EXAMPLE_AUDIENCE } from '../../src/modules/contact/seed-example';
import { SKIP_REASONS } from '../../src/shared/contracts/broadcast';
import { apiFromPage, byId, eventually, signIn } from './console';

// The bounce loop on the real local platform (src/modules/bounce): a broadcast to the seeded contacts and to
// hard-bounce@, soft-bounce@ and complaint@ addresses goes through the seeded SMTP integration into the mail catcher, with each message's signed
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

  it('counts a bounce and a complaint live on the broadcast view, suppresses both with reasons, and the next broadcast skips only them', async () => {
    await signIn(page, baseUrl);
    const addresses = { hard: `hard-bounce@${RUN}.test`, soft: `soft-bounce@${RUN}.test`, complaint: `complaint@${RUN}.test` };
    const contactIds: Record<string, number> = {};
    for (const [name, value] of Object.entries(addresses)) {
      const contact = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/contact', { name: `${name} ${RUN}`, addresses: [{ type: 'email', value }] });
      expect(contact.status).toBe(201);
      contactIds[name] = contact.body.data.id;
    }
    // The seeded contacts (npm start's example audience) with them, by id: the shared organisation's tags and other
    // files' contacts stay out of it. A category of its own, so no other file's unsubscribe changes who is skipped.
    const seeded = (await apiFromPage<{ items: { id: number }[] }>(page, 'GET', `/contact?search=${encodeURIComponent('@example.test')}&page_size=50`)).body
      .items;
    expect(seeded.length).toBeGreaterThanOrEqual(EXAMPLE_AUDIENCE.contacts.length);
    const category = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/subscription', { name: `Bounces ${RUN}` });
    const senders = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/sender?page_size=100')).body.items;
    const templates = (await apiFromPage<{ items: { id: number; type: string }[] }>(page, 'GET', '/template?page_size=100')).body.items;
    const broadcast = (name: string) =>
      apiFromPage<{ data: { id: number } }>(page, 'POST', '/broadcast', {
        name: `${name} ${RUN}`,
        type: 'email',
        sender_id: senders.find((s) => s.type === 'email')!.id,
        template_id: templates.find((t) => t.type !== 'text')!.id,
        subscription_id: category.body.data.id,
        contacts: { filter: { ids: [...seeded.map((c) => c.id), ...Object.values(contactIds)] } },
      });
    const created = await broadcast('Bouncing');
    expect(created.status).toBe(201);
    const id = created.body.data.id;

    // The view is open while the reports come back: its figures move without a reload.
    await page.goto(`${baseUrl}/broadcast/view/${id}`);
    await eventually(async () => [await byId(page, 'figure-bounces').innerText(), await byId(page, 'figure-complaints').innerText()], ['1', '1'], 60_000);
    await screenshot(page, 'broadcast-bounce-counts');

    const statuses = async () => {
      const list = await apiFromPage<{ items: { to_address: string; delivery_status: string | null }[] }>(
        page,
        'GET',
        `/message?broadcast_id=${id}&page_size=50`,
      );
      return list.body.items
        .filter((m) => m.to_address.endsWith(`@${RUN}.test`))
        .map((m) => `${m.to_address} ${m.delivery_status}`)
        .sort();
    };
    await eventually(statuses, [`${addresses.complaint} complained`, `${addresses.hard} bounced`, `${addresses.soft} soft_bounced`], 60_000);

    // The recipients tab reads the outcome, not a green "Sent": filtered by it, and on a phone in view without scrolling.
    const recipientsBy = async (viewer: Page, outcome: string) => {
      await viewer.goto(`${baseUrl}/broadcast/view/${id}`);
      await byId(viewer, 'tab-recipients').click();
      await byId(viewer, 'filter-outcome').click();
      await viewer.getByRole('option', { name: outcome, exact: true }).click();
      await eventually(async () => (await byId(viewer, 'list-row').count()) === 1, true);
    };
    await recipientsBy(page, 'Bounced');
    expect(await byId(page, 'list-row').innerText()).toContain(addresses.hard);
    await screenshot(page, 'broadcast-recipients-bounced');
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    await recipientsBy(phone, 'Reported as spam');
    const chip = byId(byId(phone, 'recipient-compact'), 'message-status');
    expect(await chip.getAttribute('data-status')).toBe('complained');
    const box = (await chip.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'broadcast-recipients-phone');
    await phone.context().close();

    const blacklist = await apiFromPage<{ items: { value: string; info: string; reason: string }[] }>(page, 'GET', `/blacklist?search=${RUN}&page_size=10`);
    expect(blacklist.body.items.map((b) => [b.value, b.reason]).sort()).toEqual([
      [addresses.complaint, 'complaint'],
      [addresses.hard, 'bounce'],
    ]);
    expect(blacklist.body.items.find((b) => b.value === addresses.hard)!.info).toMatch(/^Hard bounce 5\.1\.1 \(message \d+\)$/);

    // Each contact's page shows the suppression with its reason and Lift, under "Bounces and complaints" (the README).
    for (const [name, reason] of [
      ['hard', 'bounce'],
      ['complaint', 'complaint'],
    ] as const) {
      await page.goto(`${baseUrl}/contact/view/${contactIds[name]}`);
      await expect.poll(() => byId(page, 'suppression-reason').getAttribute('data-reason'), { timeout: 15_000 }).toBe(reason);
      expect(await byId(page, 'contact-bounces').getByRole('heading').innerText()).toBe('Bounces and complaints');
      await byId(page, 'contact-suppression-lift').waitFor();
    }
    await screenshot(page, 'contact-suppressed');

    // The message view shows the report.
    const messages = await apiFromPage<{ items: { id: number; to_address: string }[] }>(page, 'GET', `/message?broadcast_id=${id}&page_size=50`);
    const hard = messages.body.items.find((m) => m.to_address === addresses.hard)!;
    await page.goto(`${baseUrl}/message/view/${hard.id}`);
    await eventually(async () => (await byId(page, 'delivery-status').getAttribute('data-status')) ?? '', 'bounced');
    await screenshot(page, 'message-bounced');

    // The next broadcast to the same people skips the two, with their reasons, and no one else.
    const next = await broadcast('After the bounces');
    expect(next.status).toBe(201);
    const skipped = async () => {
      const list = await apiFromPage<{ items: { address: string; reason: string }[] }>(
        page,
        'GET',
        `/broadcast/${next.body.data.id}/recipients?status=skipped&page_size=50`,
      );
      return list.body.items.map((r) => `${r.address}: ${r.reason}`).sort();
    };
    await eventually(skipped, [`${addresses.complaint}: ${SKIP_REASONS.complained}`, `${addresses.hard}: ${SKIP_REASONS.bounced}`], 60_000);
  });
});
