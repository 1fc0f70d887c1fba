import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import path from 'node:path';
import { launchChromium, RESULTS_DIR } from './browser';
import { apiFromPage, apiResponse, byId, eventually, listSettled, signIn } from './console';
import { waitForMail } from './identity-helpers';

// Issue 40 end to end: a contact gets a mail (caught by the local SMTP catcher), its data is exported from the
// contact's page (the JSON download holds the message), then it is erased with the typed confirmation; the contact
// and the message's recipient can no longer be found in the console. Screenshots of both dialogs at desktop and
// phone width, in English and German.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const RUN = Date.now().toString(36);
const NAME = `Dana Privacy ${RUN}`;
const EMAIL = `dana.${RUN}@privacy-e2e.test`;
const SENDER = 'hello@acme.test';
const SUBJECT = `Your receipt ${RUN}`;

/**
 * The viewport as the person sees it, once the open dialog has finished fading in (a dialog is fixed: a full-page
 * capture would stitch the page behind it).
 */
async function screenshot(page: Page, name: string) {
  // Runs in the page, whose globals the tests' types do not know (and whose CSP refuses a string to evaluate).
  await page.waitForFunction(() => {
    const { document, getComputedStyle } = globalThis as unknown as {
      document: { querySelectorAll(selector: string): Iterable<unknown> };
      getComputedStyle(element: unknown): { opacity: string };
    };
    return [...document.querySelectorAll('.mantine-Modal-content')].every((element) => getComputedStyle(element).opacity === '1');
  });
  await page.screenshot({ path: path.join(RESULTS_DIR, `${name}.png`) });
}

describe("a person's data: export and erasure from the contact's page (headless Chromium against wrangler dev)", () => {
  let browser: Browser;
  let page: Page;
  let contactId = 0;
  let messageId = 0;

  /**
   * The rows a console list shows for `text` typed in its search, once they are `expected` (eventually asserts it).
   * The list keeps its last search: it is cleared first, so typing the same text again searches again.
   */
  const expectRowsFound = async (list: 'contact' | 'message', text: string, expected: number) => {
    await page.goto(`${baseUrl}/${list}`);
    await listSettled(page);
    await byId(page, 'list-search').fill('');
    await byId(page, 'list-search').fill(text);
    await eventually(async () => {
      await listSettled(page);
      return byId(page, 'list-row').count();
    }, expected);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })).newPage();
    await signIn(page, baseUrl);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('makes a contact and sends it a mail, which the catcher receives', async () => {
    const created = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/contact', { name: NAME, addresses: [{ type: 'email', value: EMAIL }] });
    expect(created.status).toBe(201);
    contactId = created.body.data.id;
    const senders = await apiFromPage<{ items: { id: number; value: string }[] }>(page, 'GET', '/sender?page_size=100');
    const sender = senders.body.items.find((s) => s.value === SENDER);
    expect(sender, `the seeded sender ${SENDER}`).toBeTruthy();
    const sent = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/send', {
      to: EMAIL,
      contact_id: contactId,
      sender_id: sender!.id,
      subject: SUBJECT,
      html: `<p>Dear ${NAME}, thank you.</p>`,
    });
    expect(sent.status).toBe(202);
    messageId = sent.body.data.id;
    await waitForMail(mailUrl, EMAIL, new RegExp(`^${SUBJECT}$`));
    // Settled (the erasure waits for messages still on their way).
    await eventually(async () => (await apiFromPage<{ data: { status: string } }>(page, 'GET', `/message/${messageId}`)).body.data.status, 'sent');
  });

  it("downloads the export from the contact's page, holding the contact and the message", async () => {
    await page.goto(`${baseUrl}/contact/view/${contactId}`);
    await byId(page, 'privacy-card').waitFor();
    await byId(page, 'privacy-export-open').click();
    await byId(page, 'privacy-export-dialog').waitFor();
    await screenshot(page, 'privacy-export-dialog-1280-en');
    const download = page.waitForEvent('download');
    await byId(page, 'privacy-export-json').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`contact-${contactId}-export.json`);
    const exported = JSON.parse(readFileSync((await file.path())!, 'utf8'));
    expect(exported.contact).toMatchObject({ id: contactId, name: NAME });
    expect(exported.messages.map((m: { id: number }) => m.id)).toContain(messageId);
    expect(JSON.stringify(exported.messages)).toContain(EMAIL);
    await page.keyboard.press('Escape');
    await byId(page, 'privacy-export-dialog').waitFor({ state: 'detached' });
    // Before the erasure the console's searches find the contact and the mail by the address.
    await expectRowsFound('contact', EMAIL, 1);
    await expectRowsFound('message', EMAIL, 1);
    await page.goto(`${baseUrl}/contact/view/${contactId}`);
    await byId(page, 'privacy-card').waitFor();
  });

  it('erases the contact once its address is typed; the console finds neither it nor the mail’s recipient', async () => {
    await byId(page, 'privacy-erase-open').click();
    await byId(page, 'privacy-erase-dialog').waitFor();
    expect(await byId(page, 'privacy-erase-submit').isDisabled()).toBe(true);
    await byId(page, 'privacy-erase-confirm-input').fill(EMAIL.toUpperCase());
    await screenshot(page, 'privacy-erase-dialog-1280-en');
    const erased = apiResponse(page, 'POST', `/contact/${contactId}/erase`);
    await byId(page, 'privacy-erase-submit').click();
    expect((await erased).status()).toBe(200);
    await byId(page, 'privacy-erase-result').waitFor();
    expect(await byId(page, 'privacy-erase-count-messages').innerText()).toMatch(/\b1\b/);
    await screenshot(page, 'privacy-erase-result-1280-en');
    await byId(page, 'privacy-erase-done').click();
    await page.waitForURL(/\/contact$/);

    // The contact list's and the message list's searches for the address find nothing (they found each before:
    // the export step); the message is still counted, to "erased".
    await expectRowsFound('contact', EMAIL, 0);
    await expectRowsFound('message', EMAIL, 0);
    const found = await apiFromPage<{ items: unknown[] }>(page, 'GET', `/message?search=${encodeURIComponent(RUN)}`);
    expect(found.body.items).toEqual([]);
    const message = await apiFromPage<{ data: { to_address: string; subject: string | null; status: string } }>(page, 'GET', `/message/${messageId}`);
    expect(message.body.data).toMatchObject({ to_address: 'erased', subject: null, status: 'sent' });
    expect((await apiFromPage(page, 'GET', `/contact/${contactId}`)).status).toBe(404);
  });

  it('shows both dialogs at phone width and in German', async () => {
    const other = await apiFromPage<{ data: { id: number } }>(page, 'POST', '/contact', {
      name: `Emil Beispiel ${RUN}`,
      addresses: [{ type: 'email', value: `emil.${RUN}@privacy-e2e.test` }],
    });
    expect(other.status).toBe(201);
    const shots = async (suffix: string) => {
      await page.goto(`${baseUrl}/contact/view/${other.body.data.id}`);
      await byId(page, 'privacy-export-open').click();
      await byId(page, 'privacy-export-dialog').waitFor();
      await screenshot(page, `privacy-export-dialog-${suffix}`);
      await page.keyboard.press('Escape');
      await byId(page, 'privacy-export-dialog').waitFor({ state: 'detached' });
      await byId(page, 'privacy-erase-open').click();
      await byId(page, 'privacy-erase-dialog').waitFor();
      await screenshot(page, `privacy-erase-dialog-${suffix}`);
      await page.keyboard.press('Escape');
      await byId(page, 'privacy-erase-dialog').waitFor({ state: 'detached' });
    };
    await page.setViewportSize({ width: 390, height: 844 });
    await shots('390-en');
    const me = await apiFromPage<{ data: { id: number } }>(page, 'GET', '/internal-user/me');
    expect((await apiFromPage(page, 'PUT', `/internal-user/${me.body.data.id}/language`, { language: 'de' })).status).toBe(200);
    await page.evaluate(() => localStorage.setItem('language', 'de'));
    await shots('390-de');
    expect(await byId(page, 'privacy-erase-open').innerText()).toBe('Personenbezogene Daten löschen');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shots('1280-de');
    // Back to English for the files after this one (they share the seeded user).
    expect((await apiFromPage(page, 'PUT', `/internal-user/${me.body.data.id}/language`, { language: 'en' })).status).toBe(200);
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    expect((await apiFromPage(page, 'DELETE', `/contact/${other.body.data.id}`)).status).toBe(200);
  });
});
