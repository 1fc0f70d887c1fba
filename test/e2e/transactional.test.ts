import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SEED_ORG } from '../../scripts/lib/seed-data.mjs';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId, eventually, listSettled, pickOptions, signIn } from './console';
import { mailTo, waitForMail, type CaughtMail } from './identity-helpers';

// Issue 36 end to end: an organisation API key made on the console's keys screen sends a template with data through
// POST /api/v1/send from Node, as a customer's software would; the mail lands in the catcher personalised; a retry
// with the same Idempotency-Key is answered again without a second mail; the console lists the message as
// transactional, with its metadata and the key's name, and the keys screen shows when the key was last used.
const baseUrl = inject('baseUrl');
const port = inject('port');
const mailUrl = inject('mailUrl');
const RUN = Date.now().toString(36);
const KEY_NAME = `Web shop ${RUN}`;
const TO = `grace.${RUN}@shop.test`;
const SENDER = 'hello@acme.test';
const IDEMPOTENCY_KEY = `order-A-1001-${RUN}`;

/** What the Node side of the test sends: the send body for one order (the template fills subject and body from `data`). */
const sendBody = (templateId: number, senderId: number, order: string) => ({
  to: TO,
  sender_id: senderId,
  template_id: templateId,
  data: { first_name: 'Grace', order },
  metadata: { order_id: `${order}-${RUN}`, source: 'checkout' },
});

/** POST /api/v1/send from Node (not the browser) on the bare platform address, the organisation named by X-ORG. */
async function send(key: string, body: unknown, idempotencyKey: string) {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/send`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'X-ORG': SEED_ORG.domain, 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text(), replayed: res.headers.get('idempotent-replayed') };
}

describe('transactional send with an organisation key made in the console (headless Chromium, Node fetch)', () => {
  let browser: Browser;
  let page: Page;
  let templateId = 0;
  let senderId = 0;
  let key = '';
  let firstAnswer = { status: 0, text: '' };
  let messageId = 0;
  let testMessageId = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('prepares an email template that prints data values, finds the seeded sender, and sends a test message', async () => {
    const template = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/template', {
      type: 'email',
      name: `Order shipped ${RUN}`,
      subject: 'Order {{ data.order }} has shipped',
      body: '<p>Hello {{ data.first_name }}, your order {{ data.order }} is on its way.</p>',
    });
    expect(template.status).toBe(201);
    templateId = template.body.data.id;
    const senders = await apiFromPage<{ items: { id: number; value: string }[] }>(page, 'GET', '/sender?page_size=100');
    const sender = senders.body.items.find((s) => s.value === SENDER);
    expect(sender, `the seeded sender ${SENDER}`).toBeTruthy();
    senderId = sender!.id;
    // A test message from the console: another kind of message, for the list's kind filter to leave out.
    const test = await apiFromPage<{ data: { id: number } }>(page, 'POST', `/template/${templateId}/test`, {
      sender_id: senderId,
      to: `tester.${RUN}@shop.test`,
    });
    expect(test.status).toBe(202);
    testMessageId = test.body.data.id;
  });

  it('creates a live send-only key on the keys screen and reads it from the dialog that shows it once', async () => {
    await page.goto(`${baseUrl}/me/organization-keys`);
    await byId(page, 'org-keys').waitFor();
    await byId(page, 'org-key-create').click();
    await byId(page, 'org-key-name').fill(KEY_NAME);
    await byId(page, 'org-key-scope').selectOption('send');
    expect(await byId(page, 'org-key-test').isChecked()).toBe(false);
    const created = apiResponse(page, 'POST', '/organization-api-key');
    await byId(page, 'org-key-submit').click();
    expect((await created).status()).toBe(201);

    const secret = byId(page, 'org-key-secret');
    await secret.waitFor();
    expect(await byId(page, 'org-key-once').isVisible()).toBe(true);
    key = (await secret.innerText()).trim();
    expect(key).toMatch(/^rk_live_[A-Za-z0-9]{40}$/);
    await byId(page, 'org-key-done').click();
    await secret.waitFor({ state: 'detached' });

    // Listed by name with its scope, never used yet, and the key itself is not on the page any more.
    const row = byId(page, 'list-row').filter({ hasText: KEY_NAME });
    await row.waitFor();
    // The badge shows its text in capitals (CSS): read the text itself.
    expect(await row.locator('[data-column="scope"]').textContent()).toBe('Send only');
    expect(await row.locator('[data-column="last_used_at"]').innerText()).toBe('Never');
    expect(await page.locator('body').innerText()).not.toContain(key);
  });

  it('sends the template with data, metadata and an Idempotency-Key from Node; the mail arrives personalised', async () => {
    firstAnswer = await send(key, sendBody(templateId, senderId, 'A-1001'), IDEMPOTENCY_KEY);
    expect(firstAnswer.status, firstAnswer.text).toBe(202);
    const data = (JSON.parse(firstAnswer.text) as { data: { id: number; status: string; to: string; sandbox: boolean } }).data;
    expect(data).toMatchObject({ status: 'queued', to: TO, sandbox: false });
    messageId = data.id;

    const mail = await waitForMail(mailUrl, TO, /^Order A-1001 has shipped$/);
    expect(mail.text).toContain('Hello Grace, your order A-1001 is on its way.');
    // Transactional (no category): no unsubscribe header.
    const headers = (mail as CaughtMail & { headers: Record<string, string> }).headers;
    expect(headers['list-unsubscribe']).toBeUndefined();
  });

  it('answers a retry with the same key and body as the first call, and sends nothing more', async () => {
    const retry = await send(key, sendBody(templateId, senderId, 'A-1001'), IDEMPOTENCY_KEY);
    expect(retry.status).toBe(202);
    expect(retry.text).toBe(firstAnswer.text);
    expect(retry.replayed).toBe('true');

    // No fixed wait for a mail that should not come: a marker sent after the retry, and once it has arrived the platform
    // holds exactly two messages to the address (the order and the marker) and the catcher exactly two mails.
    const marker = await send(key, sendBody(templateId, senderId, 'MARKER'), `marker-${RUN}`);
    expect(marker.status, marker.text).toBe(202);
    expect(marker.replayed).toBeNull();
    const markerId = (JSON.parse(marker.text) as { data: { id: number } }).data.id;
    await waitForMail(mailUrl, TO, /^Order MARKER has shipped$/);
    const listed = async () => {
      const res = await apiFromPage<{ items: { id: number; status: string }[] }>(page, 'GET', `/message?kind=transactional&search=${encodeURIComponent(TO)}`);
      return res.body.items.map((m) => `${m.id}:${m.status}`).sort();
    };
    await eventually(listed, [`${messageId}:sent`, `${markerId}:sent`].sort(), 30_000);
    const subjects = (await mailTo(mailUrl, TO)).map((m) => m.subject).sort();
    expect(subjects).toEqual(['Order A-1001 has shipped', 'Order MARKER has shipped']);
  });

  it('lists the message under Kind = Transactional and shows its metadata and the key by name', async () => {
    await page.goto(`${baseUrl}/message`);
    await listSettled(page);
    const row = page.locator(`[data-testid="list-row"][data-id="${messageId}"]`);
    const other = page.locator(`[data-testid="list-row"][data-id="${testMessageId}"]`);
    // Unfiltered, the newest messages include the console's test message; the kind filter leaves it out.
    await other.waitFor();
    const filtered = page.waitForResponse((res) => {
      const url = new URL(res.url());
      return url.pathname === '/api/v1/message' && url.searchParams.get('kind') === 'transactional';
    });
    await pickOptions(page, byId(page, 'message-kind-filter'), ['Transactional']);
    expect((await filtered).status()).toBe(200);
    await row.waitFor();
    await listSettled(page);
    expect(await other.count()).toBe(0);
    const shown = await byId(page, 'list-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-id'))));
    const kinds = await Promise.all(shown.map(async (id) => (await apiFromPage<{ data: { kind: string } }>(page, 'GET', `/message/${id}`)).body.data.kind));
    expect(new Set(kinds)).toEqual(new Set(['transactional']));
    expect(await row.innerText()).toContain(TO);
    await screenshot(page, 'transactional-message-list');

    await byId(row, 'row-view').click();
    await page.waitForURL(new RegExp(`/message/view/${messageId}$`));
    await byId(page, 'message-base-info').waitFor();
    expect(await byId(page, 'message-kind').innerText()).toBe('Transactional');
    const metadata = byId(page, 'message-metadata');
    await metadata.waitFor();
    const pairs = (await byId(metadata, 'message-metadata-row').allInnerTexts()).map((text) => text.split(/\t|\n/).map((cell) => cell.trim()));
    expect(pairs).toEqual([
      ['order_id', `A-1001-${RUN}`],
      ['source', 'checkout'],
    ]);
    // The key's name arrives with the organisation's key list.
    await eventually(() => byId(page, 'message-api-key').innerText(), KEY_NAME);
    await screenshot(page, 'transactional-message-view');
  });

  it("shows the key's last use on the keys screen after the calls", async () => {
    const lastUsed = async () => {
      await page.goto(`${baseUrl}/me/organization-keys`);
      const cell = byId(page, 'list-row').filter({ hasText: KEY_NAME }).locator('[data-column="last_used_at"]');
      await cell.waitFor();
      return (await cell.innerText()).trim();
    };
    // last_used_at is written after the answer: wait for it rather than for a time.
    await expect.poll(lastUsed, { timeout: 20_000 }).not.toBe('Never');
    const keys = await apiFromPage<{ items: { name: string; last_used_at: string | null }[] }>(page, 'GET', '/organization-api-key');
    const stamp = keys.body.items.find((k) => k.name === KEY_NAME)?.last_used_at;
    expect(stamp).toBeTruthy();
    expect(Date.now() - Date.parse(stamp!)).toBeLessThan(10 * 60_000);
    await screenshot(page, 'transactional-org-keys');
  });
});
