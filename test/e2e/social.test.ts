import http from 'node:http';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { requestWithHost } from '../../scripts/lib/http.mjs';
import { LOCAL_OIDC_PERSON } from '../../scripts/oidc-provider.mjs';
import { launchChromium } from './browser';
import { apiFromPage, byId } from './console';
import { freshAccount, hostCall, orgUrl, signInAs, signOut, signUpByApi } from './identity-helpers';

const port = inject('port');
const mailUrl = inject('mailUrl');
const oidcIssuer = inject('oidcIssuer');

/** Where a redirect on the local platform points: GET to 127.0.0.1:<port> with the URL's Host, no following. */
function redirectOf(port: number, url: URL): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: `${url.pathname}${url.search}`, headers: { host: url.host } }, (res) => {
      res.resume();
      if (res.statusCode === 302 && res.headers.location) resolve(res.headers.location);
      else reject(new Error(`${url.pathname} answered ${res.statusCode}, not a redirect`));
    });
    req.on('error', reject);
    req.end();
  });
}

interface Me {
  data: { id: number; email: string; organization: { domain: string } };
}

// The local provider signs in the same person every time, and a social account links to one user per
// organisation: this test uses its own fresh organisation.
describe('social sign-in through the loopback OpenID Connect provider (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  const account = freshAccount('social');
  const base = orgUrl(port, account.domain);
  let userId: number;

  beforeAll(async () => {
    await signUpByApi(port, mailUrl, account);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const provider = () => page.locator('[data-testid="social-provider"][data-provider="oidc"]');

  it('before linking, Continue with Local ID does not sign anyone in', async () => {
    await page.goto(`${base}/`);
    await byId(page, 'signin-tab-social').click();
    await byId(page, 'social-login-oidc').click();
    await page.waitForURL((url) => url.pathname === '/social-login' || url.origin === base);
    await byId(page, 'social-login-error').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeFalsy();
  });

  it('links Local ID on /me/security and comes back with the success notice', async () => {
    await signInAs(page, base, account.email, account.password);
    userId = (await apiFromPage<Me>(page, 'GET', '/internal-user/me')).body.data.id;
    await page.goto(`${base}/me/security`);
    await byId(page, 'my-security').waitFor();
    await expect.poll(() => provider().getAttribute('data-linked')).toBe('false');
    expect(await provider().innerText()).toContain('Local ID');

    // Back from the provider, the page fetches the list and confirms the link at once. Hold the list's first
    // answer (read by the server before the link) until the link is confirmed: the refetch after the link must
    // still show it linked, not that older answer.
    let linkConfirmed!: () => void;
    const confirmed = new Promise<void>((resolve) => (linkConfirmed = resolve));
    page.on('response', (res) => {
      if (res.request().method() === 'POST' && new URL(res.url()).pathname === '/api/v1/social/oidc/link') linkConfirmed();
    });
    let held = false;
    await page.route(
      (url) => url.pathname === '/api/v1/social',
      async (route) => {
        if (held || route.request().method() !== 'GET') return route.continue();
        held = true;
        // Sent by Node to the platform (Node does not resolve *.localhost), with the browser's bearer and headers.
        const { host: _host, ...headers } = await route.request().allHeaders();
        const answer = await requestWithHost(port, new URL(base).host, 'GET', '/api/v1/social', { headers });
        await Promise.race([confirmed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        await route.fulfill({ status: answer.status, contentType: 'application/json', body: answer.body });
      },
    );

    const seenProvider: string[] = [];
    page.on('request', (req) => {
      if (req.url().startsWith(oidcIssuer)) seenProvider.push(req.url());
    });
    await byId(provider(), 'social-link').click();
    await page.waitForURL((url) => url.origin === base && url.pathname === '/me/security' && url.searchParams.has('status'), { timeout: 30_000 });
    // The browser really went through the provider's authorisation endpoint.
    expect(seenProvider.some((u) => new URL(u).pathname.includes('authorize'))).toBe(true);
    expect(new URL(page.url()).searchParams.get('status')).toBe('social-link');
    expect(new URL(page.url()).searchParams.get('error')).toBeNull();

    const notice = byId(page, 'security-notice');
    await notice.waitFor();
    expect(await notice.getAttribute('data-kind')).toBe('success');
    expect(await notice.innerText()).toContain('Local ID');
    expect(held).toBe(true);
    await expect.poll(() => provider().getAttribute('data-linked')).toBe('true');
    expect(await byId(provider(), 'social-account').textContent()).toContain(LOCAL_OIDC_PERSON.email);
    await byId(provider(), 'social-unlink').waitFor();
  });

  it('signs out, then Continue with Local ID signs in as the same user', async () => {
    await signOut(page);
    await byId(page, 'signin-tab-social').click();
    const button = byId(page, 'social-login-oidc');
    expect(await button.innerText()).toContain('Continue with Local ID');
    await button.click();
    await page.waitForURL((url) => url.origin === base, { timeout: 30_000 });
    await byId(page, 'dashboard').waitFor({ timeout: 30_000 });
    const me = await apiFromPage<Me>(page, 'GET', '/internal-user/me');
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(userId);
    expect(me.body.data.email).toBe(account.email);
    expect(me.body.data.organization.domain).toBe(account.domain);
  });
  it('a /social-login URL with the tokens of a sign-in another browser started does not sign in (login CSRF)', async () => {
    // The attacker starts Continue with Local ID outside any console and stops at the console URL with the tokens.
    const orgHost = new URL(base).host;
    const started = await hostCall<{ data: { url: string } }>(port, orgHost, 'POST', '/api/v1/social/oidc/authorize', { json: { action: 'login' } });
    expect(started.status).toBe(200);
    const atProvider = await fetch(started.body.data.url, { redirect: 'manual' });
    expect(atProvider.status).toBe(302);
    const callback = new URL(atProvider.headers.get('location')!);
    const consoleUrl = new URL(await redirectOf(port, callback));
    expect(consoleUrl.pathname).toBe('/social-login');
    const token = consoleUrl.searchParams.get('access_token')!;
    expect(token).toBeTruthy();
    expect(consoleUrl.searchParams.get('state')).toBe(callback.searchParams.get('state'));
    const me = () => hostCall(port, orgHost, 'GET', '/api/v1/internal-user/me', { headers: { authorization: `Bearer ${token}` } });
    expect((await me()).status).toBe(200);

    // The victim opens it in a fresh browser: refused, nothing stored, and that session is ended at once.
    const victimContext = await browser.newContext();
    try {
      const victim = await victimContext.newPage();
      await victim.goto(consoleUrl.toString());
      const error = byId(victim, 'social-login-error');
      await error.waitFor({ timeout: 30_000 });
      expect(await error.innerText()).toContain('This sign-in or link was not started in this browser');
      expect(await victim.evaluate(() => localStorage.getItem('accessToken'))).toBeFalsy();
      expect(await victim.evaluate(() => localStorage.getItem('refreshToken'))).toBeFalsy();
      expect(new URL(victim.url()).search).toBe('');
      await expect.poll(async () => (await me()).status, { timeout: 15_000 }).toBe(401);
    } finally {
      await victimContext.close();
    }
  });
});
