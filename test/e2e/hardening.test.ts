import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
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
});
