import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, byId, eventually, signIn } from './console';

// Message retention as the organisation sets it (My account -> Organisation), and the message list saying where
// older messages go, with its archive panel; on a desktop and a phone, in English and French. (Archiving itself
// needs messages weeks old: the worker tests drive it, test/worker/retention.)
const baseUrl = inject('baseUrl');

describe('message retention (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(page, baseUrl);
  });

  afterAll(async () => {
    // Leave the seeded organisation on the platform's default for the other files.
    if (page) {
      const { name } = (await apiFromPage<{ data: { name: string } }>(page, 'GET', '/organization')).body.data;
      await apiFromPage(page, 'PUT', '/organization', { name, message_retention_days: null });
    }
    await browser?.close();
  });

  it('refuses a retention out of range with the field message, saves a good one, and the message list says it', async () => {
    await page.goto(`${baseUrl}/me/organization`);
    const input = byId(page, 'organization-retention');
    await input.waitFor();
    expect(await input.getAttribute('placeholder')).toContain('90');
    await input.fill('3');
    await byId(page, 'organization-form-submit').click();
    await page.getByText('Must be a whole number of days from 7 to 3650').waitFor();
    await screenshot(page, 'retention-error');
    await input.fill('30');
    await byId(page, 'organization-form-submit').click();
    await eventually(
      async () => (await apiFromPage<{ data: { message_retention_days: number } }>(page, 'GET', '/organization')).body.data.message_retention_days,
      30,
    );
    await page.reload();
    await byId(page, 'organization-retention').waitFor();
    expect(await byId(page, 'organization-retention').inputValue()).toBe('30');

    await page.goto(`${baseUrl}/message`);
    const panel = byId(page, 'message-archive');
    await panel.waitFor();
    expect(await panel.innerText()).toContain('older than 30 days');
    await screenshot(page, 'message-archive');
  });

  it('reads on a phone and in French', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    await phone.goto(`${baseUrl}/message`);
    await byId(phone, 'message-archive').waitFor();
    await screenshot(phone, 'message-archive-phone');
    await byId(phone, 'language-switcher').selectOption({ label: 'Français' });
    await eventually(async () => (await byId(phone, 'message-archive').innerText()).includes('Messages plus anciens'), true);
    await screenshot(phone, 'message-archive-phone-fr');
    await phone.goto(`${baseUrl}/me/organization`);
    await byId(phone, 'organization-retention').waitFor();
    await screenshot(phone, 'retention-phone-fr');
    await phone.close();
  });
});
