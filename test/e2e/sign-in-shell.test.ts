import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot, takeCspViolations } from './browser';
import { byId, signIn } from './console';

// The sign-in card the worker paints from the html at `/` before the console has run (issue 23; src/modules/console/
// sign-in-shell.ts). It must be where the console's own card then appears (the swap happens in one frame: anything
// that moves jumps in front of the user and counts against the page's paint metrics), in the browser's language, at a
// phone's and a desktop's width; and a signed-in user never sees it.

const baseUrl = inject('baseUrl');

/** Where each part of the card is on the page: the card, its title, the two fields, the button, the tab list. */
async function layout(page: Page, root: string) {
  return page.evaluate((rootSelector) => {
    type Element = { querySelector(s: string): Element; getBoundingClientRect(): { x: number; y: number; width: number; height: number }; innerText: string };
    const scope = (globalThis as unknown as { document: Element }).document.querySelector(rootSelector);
    const box = (selector: string) => {
      const r = scope.querySelector(selector).getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round);
    };
    return {
      card: box('.mantine-Card-root'),
      title: box('h2'),
      tabs: box('.mantine-Tabs-list'),
      username: box('.mantine-TextInput-input'),
      password: box('.mantine-PasswordInput-input'),
      button: box('.mantine-Button-root'),
      header: box('header h3'),
      text: scope.querySelector('.mantine-Card-root').innerText.split('\n').filter(Boolean),
    };
  }, root);
}

describe('the sign-in shell', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const [width, locale] of [
    [390, 'en-US'],
    [390, 'de-DE'],
    [1280, 'en-US'],
    [1280, 'de-DE'],
  ] as const) {
    it(`is painted where the console's card appears, in the browser's language (${width} px, ${locale})`, async () => {
      const viewport = { width, height: 844 };
      // Without JavaScript: only the shell.
      const still = await (await browser.newContext({ viewport, locale, javaScriptEnabled: false })).newPage();
      await still.goto(`${baseUrl}/`);
      const shell = await layout(still, '#boot-shell');
      await screenshot(still, `sign-in-shell-${width}-${locale}`);
      // With it: the console's card, and the shell gone.
      const live = await (await browser.newContext({ viewport, locale })).newPage();
      await live.goto(`${baseUrl}/`);
      await byId(live, 'signin-card').waitFor();
      expect(await live.locator('#boot-shell').count()).toBe(0);
      const card = await layout(live, '#root');
      expect(shell).toEqual(card);
      expect(shell.text[0]).toBe(locale === 'de-DE' ? 'Anmelden' : 'Sign in');
      expect(takeCspViolations()).toEqual([]);
    });
  }

  it('never shows to a signed-in user', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page, baseUrl);
    // At the html's own end, before the console has run, the shell is already gone.
    let shellAtParse: number | null = null;
    page.on('domcontentloaded', async () => {
      shellAtParse = await page.evaluate(
        () => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('#boot-shell').length,
      );
    });
    await page.goto(`${baseUrl}/`, { waitUntil: 'domcontentloaded' });
    await byId(page, 'dashboard').waitFor();
    expect(shellAtParse).toBe(0);
    expect(takeCspViolations()).toEqual([]);
  });
});
