import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '../../src/shared/messages';
import { launchChromium } from './browser';
import { apiFromPage, byId } from './console';
import { hostCall, orgUrl, signInAs } from './identity-helpers';

const port = inject('port');

// The shared demo (demo.localhost) is its own organisation: nothing here touches the seeded acme or other tests.
describe('the shared demo (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  const base = orgUrl(port, 'demo');
  let login: string;
  let password: string;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the sign-in card carries the demo notice, and its link shows the login and password', async () => {
    await page.goto(`${base}/`);
    await byId(page, 'signin-card').waitFor();
    await byId(page, 'demo-notice').waitFor();
    await byId(page, 'demo-notice-link').click();
    await page.waitForURL(/\/demo-info$/);
    await byId(page, 'demo-info-login').waitFor();
    login = (await byId(page, 'demo-info-login').innerText()).trim();
    password = (await byId(page, 'demo-info-password').innerText()).trim();
    expect(login).toBe('demo@demo.test');
    expect(password.length).toBeGreaterThan(0);
    expect(await byId(page, 'demo-info-reset').innerText()).toMatch(/\d+/);
  });

  it('a real organisation has no demo notice', async () => {
    const other = await browser.newPage();
    await other.goto(`${orgUrl(port, 'acme')}/`);
    await byId(other, 'signin-card').waitFor();
    await byId(other, 'signin-tab-password').waitFor();
    expect(await byId(other, 'demo-notice').count()).toBe(0);
    await other.close();
  });

  it('signs in with the shown login and password; /me/profile has the banner and a disabled form', async () => {
    await signInAs(page, base, login, password);
    await page.goto(`${base}/me/profile`);
    await byId(page, 'my-profile').waitFor();
    await byId(page, 'demo-banner').waitFor();
    expect(await byId(page, 'demo-banner').innerText()).toContain('read-only');
    await byId(page, 'profile-form').waitFor();
    // The fieldset carries the disabled attribute; its inputs are disabled through it.
    expect(await byId(page, 'profile-form-fields').getAttribute('disabled')).not.toBeNull();
    expect(await byId(page, 'profile-name').isDisabled()).toBe(true);
    expect(await byId(page, 'profile-form-submit').isDisabled()).toBe(true);

    await page.goto(`${base}/me/organization`);
    await byId(page, 'demo-banner').waitFor();
    expect(await byId(page, 'organization-form-submit').isDisabled()).toBe(true);
  });

  it('an edit through the API with the demo user token is refused with 403 demo_locked', async () => {
    const viaPage = await apiFromPage<{ error: { code: string; message: string } }>(page, 'PUT', '/organization', { name: 'Hijacked demo' });
    expect(viaPage.status).toBe(403);
    expect(viaPage.body.error.code).toBe('demo_locked');
    expect(viaPage.body.error.message).toBe(MESSAGES.demoLocked);

    // The same with the bearer token from Node, and the name is unchanged.
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const direct = await hostCall<{ error: { code: string } }>(port, `demo.localhost:${port}`, 'PUT', '/api/v1/organization', {
      headers: { Authorization: `Bearer ${token}` },
      json: { name: 'Hijacked demo' },
    });
    expect(direct.status).toBe(403);
    expect(direct.body.error.code).toBe('demo_locked');
    const org = await apiFromPage<{ data: { name: string } }>(page, 'GET', '/organization');
    expect(org.status).toBe(200);
    expect(org.body.data.name).not.toBe('Hijacked demo');
  });
});
