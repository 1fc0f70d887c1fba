import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';

const port = inject('port');

describe('tenancy in the browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the "Organisation not found" 404 page for a subdomain with no organisation', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://nobody.localhost:${port}/`);
    expect(response?.status()).toBe(404);
    await expect(page.locator('h1').innerText()).resolves.toBe('Organisation not found');
    await page.close();
  });
});
