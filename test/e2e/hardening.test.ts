import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, takeCspViolations } from './browser';
import { byId } from './console';

const baseUrl = inject('baseUrl');

describe('browser hardening', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('refuses to be framed by another site', async () => {
    const page = await browser.newPage();
    // A real other origin, answered by the browser itself: its page frames the console's sign-in.
    await page.route('http://attacker.test/', (route) =>
      route.fulfill({ contentType: 'text/html', body: `<iframe id="victim" src="${baseUrl}/contact" width="800" height="600"></iframe>` }),
    );
    await page.goto('http://attacker.test/');
    await page.waitForTimeout(1500);
    const child = page.frames().find((frame) => frame !== page.mainFrame());
    // Chromium swaps a refused frame for its error page: the console never ran inside it.
    expect(child).toBeDefined();
    expect(await child!.locator('[data-testid]').count()).toBe(0);
    expect(child!.url()).not.toBe(`${baseUrl}/contact`);
    // The refusal is the point of this test, not a violation of the console's own pages.
    takeCspViolations();
    await page.close();
  });

  it('serves the built console and its files with the policy, and Swagger UI runs under it', async () => {
    const page = await browser.newPage();
    const index = await page.goto(`${baseUrl}/`);
    expect(index?.headers()['content-security-policy']).toContain("script-src 'self'");
    await byId(page, 'signin-username').waitFor();
    const script = await page.locator('script[type="module"]').first().getAttribute('src');
    // Fetched by the page itself: *.localhost names resolve in Chromium, not in Node.
    const asset = await page.evaluate(async (src) => {
      const res = await fetch(src!);
      return { status: res.status, nosniff: res.headers.get('x-content-type-options'), csp: res.headers.get('content-security-policy') };
    }, script);
    expect(asset).toMatchObject({ status: 200, nosniff: 'nosniff' });
    expect(asset.csp).toContain("default-src 'self'");
    await page.goto(`${baseUrl.replace('acme.', '')}/api/swagger-ui`);
    await page.locator('.swagger-ui .info').waitFor();
    await page.close();
  });

  it('loads at most 250 KB of JavaScript (gzip) to sign in, each language only when chosen, and caches the build a year', async () => {
    const page = await browser.newPage();
    const scripts = recordScripts(page);
    const index = await page.goto(`${baseUrl}/`);
    await byId(page, 'signin-username').waitFor();
    await page.waitForLoadState('networkidle');
    // The html is asked for again on every visit; the fingerprinted files are kept a year.
    expect(index?.headers()['cache-control']).toBe('no-cache');
    const loaded = await scripts.settled();
    const total = loaded.reduce((sum, s) => sum + s.gzip, 0);
    expect(total, loaded.map((s) => `${s.url} ${s.gzip}`).join('\n')).toBeLessThanOrEqual(250 * 1024);
    // Neither the dashboard's chart.js, the template editor's lexical nor another language's strings.
    expect(loaded.map((s) => s.url).join(' ')).not.toMatch(/chart|lexical|locale-/i);
    expect(loaded.every((s) => s.caching === 'public, max-age=31536000, immutable')).toBe(true);
    await page.close();
  });
});

/** The scripts a page loads, with each one's size gzipped (as a deployed worker sends it) and its caching header. */
function recordScripts(page: Page) {
  const pending: Promise<{ url: string; gzip: number; caching: string | undefined }>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(res.body().then((body) => ({ url: res.url(), gzip: gzipSync(body).length, caching: res.headers()['cache-control'] })));
  });
  return { settled: () => Promise.all(pending) };
}
