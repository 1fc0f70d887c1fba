import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { apiFromPage, apiResponse, byId } from './console';
import { freshAccount, orgUrl, signInAs, signUpByApi } from './identity-helpers';

const port = inject('port');
const mailUrl = inject('mailUrl');

describe('sessions: one browser revokes the other (headless Chromium)', () => {
  let browser: Browser;
  let mine: Page;
  let other: Page;
  const account = freshAccount('sessions');
  const base = orgUrl(port, account.domain);

  beforeAll(async () => {
    await signUpByApi(port, mailUrl, account);
    browser = await launchChromium();
    // Two contexts: two separate browsers as far as the platform can tell (own storage, own session).
    mine = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    other = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signInAs(mine, base, account.email, account.password);
    await signInAs(other, base, account.email, account.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const rows = (page: Page) => byId(page, 'list-row');
  const settled = (page: Page) => page.locator('[data-testid="my-sessions"][data-busy="false"]').waitFor();

  /** The session id inside a browser's access token (the JWT's sid claim). */
  const sessionIdOf = async (page: Page) => {
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    expect(token).toBeTruthy();
    const payload = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString('utf8')) as { sid: string };
    return payload.sid;
  };
  let mineId: string;
  let otherId: string;

  it('lists the sessions with this one marked current', async () => {
    mineId = await sessionIdOf(mine);
    otherId = await sessionIdOf(other);
    expect(otherId).not.toBe(mineId);
    await mine.goto(`${base}/me/session`);
    await settled(mine);
    // The two browsers, and the session the completion link opened (the sign-up helper's, from Node).
    await expect.poll(() => rows(mine).count()).toBe(3);
    const current = mine.locator('[data-testid="list-row"][data-current="true"]');
    expect(await current.count()).toBe(1);
    expect(await current.getAttribute('data-id')).toBe(mineId);
    await byId(current, 'session-current').waitFor();
    const theOther = mine.locator(`[data-testid="list-row"][data-id="${otherId}"]`);
    expect(await theOther.getAttribute('data-current')).toBe('false');
    expect(await byId(theOther, 'session-current').count()).toBe(0);
    expect(await byId(mine, 'session-current').count()).toBe(1);
    // The other browser still works.
    expect((await apiFromPage(other, 'GET', '/internal-user/me')).status).toBe(200);
  });

  it('revokes the other session: its next API call is refused and it ends on the sign-in page', async () => {
    const theOther = mine.locator(`[data-testid="list-row"][data-id="${otherId}"]`);
    await byId(theOther, 'row-revoke').click();
    const revoked = apiResponse(mine, 'DELETE', `/session/${otherId}`);
    await byId(mine, 'confirm-ok').click();
    expect((await revoked).status()).toBeLessThan(300);
    await expect.poll(() => rows(mine).count()).toBe(2);
    expect(await theOther.count()).toBe(0);
    expect(await mine.locator(`[data-testid="list-row"][data-id="${mineId}"]`).getAttribute('data-current')).toBe('true');

    // The revoked browser's access token is refused at once.
    expect((await apiFromPage(other, 'GET', '/internal-user/me')).status).toBe(401);
    // Its console (no reload: an in-app navigation), on its next call, finds the session gone and shows the sign-in page.
    expect(await byId(other, 'dashboard').isVisible()).toBe(true);
    const refused = other.waitForResponse((res) => new URL(res.url()).pathname.startsWith('/api/v1/') && res.status() === 401);
    await byId(other, 'nav-contacts').click();
    await refused;
    await byId(other, 'signin-card').waitFor({ timeout: 20_000 });
    expect(await other.evaluate(() => localStorage.getItem('accessToken'))).toBeFalsy();

    // This browser is still signed in.
    await mine.reload();
    await settled(mine);
    expect((await apiFromPage(mine, 'GET', '/internal-user/me')).status).toBe(200);
  });
});
