import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId } from './console';
import { freshAccount, hostCall, orgUrl, signInAs, signUpByApi } from './identity-helpers';

const port = inject('port');
const mailUrl = inject('mailUrl');
const platformUrl = inject('platformUrl');

describe('an API key from /me/api, used against the API (headless Chromium)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const account = freshAccount('apikey');
  const base = orgUrl(port, account.domain);
  let username: string;
  let firstKey: string;
  let secondKey: string;

  /** GET /api/v1/tag on the bare platform host with the key headers (no organisation in the host). */
  const callWith = async (key: string, org = account.domain) => {
    const res = await hostCall<{ items?: unknown[] }>(port, new URL(platformUrl).host, 'GET', '/api/v1/tag', {
      headers: { 'X-API-KEY': `${username}:${key}`, 'X-ORG': org },
    });
    return res.status;
  };

  /** Reads the key from the show-once modal, then closes it. */
  const readShownKey = async () => {
    const value = byId(page, 'api-key-value');
    await value.waitFor();
    expect(await byId(page, 'api-key-once').isVisible()).toBe(true);
    const key = (await value.innerText()).trim();
    expect(key.length).toBeGreaterThanOrEqual(20);
    await byId(page, 'api-key-close').click();
    await value.waitFor({ state: 'detached' });
    return key;
  };

  beforeAll(async () => {
    await signUpByApi(port, mailUrl, account);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInAs(page, base, account.email, account.password);
    username = (await apiFromPage<{ data: { username: string } }>(page, 'GET', '/internal-user/me')).body.data.username;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a key with a note; it is shown once and works with X-API-KEY and X-ORG on the platform host', async () => {
    await page.goto(`${base}/me/api`);
    await byId(page, 'my-api').waitFor();
    await byId(page, 'list-empty').waitFor();
    await byId(page, 'api-key-create').click();
    await page.waitForURL(/\/me\/api\/create$/);
    await byId(page, 'api-key-note').fill('Nightly export job');
    const created = apiResponse(page, 'POST', '/api/v1/internal-api-key');
    await byId(page, 'api-key-form-submit').click();
    expect((await created).status()).toBe(201);
    firstKey = await readShownKey();

    await page.waitForURL(/\/me\/api$/);
    const row = byId(page, 'list-row');
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain('Nightly export job');
    // The list never shows the key again, and there is one key at most: no create button now.
    expect(await page.locator('body').innerText()).not.toContain(firstKey);
    expect(await byId(page, 'api-key-create').count()).toBe(0);
    await screenshot(page, 'identity-me-api');

    expect(await callWith(firstKey)).toBe(200);
    // Wrong secret, wrong organisation, no organisation: refused.
    expect(await callWith(`${firstKey.slice(0, -2)}xx`)).toBe(401);
    expect(await callWith(firstKey, 'acme')).toBe(401);
    const noOrg = await hostCall(port, new URL(platformUrl).host, 'GET', '/api/v1/tag', { headers: { 'X-API-KEY': `${username}:${firstKey}` } });
    expect(noOrg.status).toBe(404);
  });

  it('regenerates after a confirmation: the old key is refused, the new one works', async () => {
    await byId(page, 'row-regenerate').click();
    const regenerated = apiResponse(page, 'POST', /\/internal-api-key\/\d+\/regenerate$/);
    await byId(page, 'confirm-ok').click();
    expect((await regenerated).status()).toBe(200);
    secondKey = await readShownKey();
    expect(secondKey).not.toBe(firstKey);
    expect(await callWith(firstKey)).toBe(401);
    expect(await callWith(secondKey)).toBe(200);
  });

  it('deletes the key after a confirmation: it is refused from then on', async () => {
    await byId(page, 'row-delete').click();
    const deleted = apiResponse(page, 'DELETE', /\/internal-api-key\/\d+$/);
    await byId(page, 'confirm-ok').click();
    expect((await deleted).status()).toBeLessThan(300);
    await byId(page, 'list-empty').waitFor();
    await byId(page, 'api-key-create').waitFor();
    expect(await callWith(secondKey)).toBe(401);
  });

  it('the API docs link opens Swagger UI with the operations, all from the same origin', async () => {
    const link = byId(page, 'api-docs-link');
    expect(new URL((await link.getAttribute('href'))!, base).pathname).toBe('/api/swagger-ui');
    const foreign: string[] = [];
    context.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol.startsWith('http') && url.host !== new URL(base).host) foreign.push(req.url());
    });
    const [docs] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await docs.waitForLoadState();
    expect(new URL(docs.url()).pathname).toBe('/api/swagger-ui');
    await docs.locator('.swagger-ui .opblock').first().waitFor({ timeout: 30_000 });
    // Swagger UI renders a long list virtually (only the rows in view exist in the page): count what it loaded.
    type SwaggerWindow = { ui: { specSelectors: { operations(): { size: number } } } };
    const loaded = () => docs.evaluate(() => (globalThis as unknown as SwaggerWindow).ui.specSelectors.operations().size);
    await expect.poll(loaded, { timeout: 30_000 }).toBeGreaterThan(100);
    // Paths are listed relative to the server /api/v1.
    expect(await docs.locator('.swagger-ui').innerText()).toMatch(/(^|\n)\/init\/guest(\n|$)/);
    expect(foreign).toEqual([]);
    await docs.close();
  });
});
