import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/lib/chromium.mjs';

/** test-results/ at the repo root (gitignored): screenshots for a person to look at. */
export const RESULTS_DIR = path.resolve(import.meta.dirname, '../../test-results');

/** Content-Security-Policy violations seen by any page since the last take (test/e2e/csp-guard.ts fails on them). */
const violations: string[] = [];

export function takeCspViolations(): string[] {
  return violations.splice(0);
}

/** Every page of the context reports what the console's policy refused, as an event and as Chromium logs it. */
async function watchPolicy(context: BrowserContext): Promise<BrowserContext> {
  await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    console.error('[csp-violation] ' + event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' on ' + event.documentURI);
  });`);
  context.on('console', (message) => {
    const text = message.text();
    if (text.startsWith('[csp-violation]') || text.includes('Content Security Policy')) violations.push(text);
  });
  return context;
}

/**
 * Launches Debian's headless Chromium through playwright-core (its own browser download does not work here).
 * Every context it opens watches the Content-Security-Policy.
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => watchPolicy(await newContext(options));
  browser.newPage = async (options) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.on('close', () => void context.close().catch(() => undefined));
    return page;
  };
  return browser;
}

/** Saves a full-page screenshot as test-results/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
