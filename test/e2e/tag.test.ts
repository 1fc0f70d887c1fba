import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiResponse, byId, dragRow, eventually, rowNames, signIn } from './console';

const baseUrl = inject('baseUrl');
// Created in this order, so the default order (priority) differs from both name orders.
const NAMES = ['Bravo', 'Charlie', 'Alpha'];
const BY_NAME = ['Alpha', 'Bravo', 'Charlie'];

describe('tags in the console (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  // Only this test's tags, in the order shown (the seeded organisation has tags of its own).
  const names = async () => (await rowNames(page, NAMES)).filter((name) => NAMES.includes(name));
  const total = async () => Number((await byId(page, 'list-total').innerText()).replace(/\D+/g, ''));
  // The seeded organisation starts with tags of its own (the example audience): counts are on top of those.
  let seeded = 0;

  it('signs in as the seeded user through the password tab', async () => {
    await signIn(page, baseUrl);
  });

  it('creates three tags', async () => {
    await page.goto(`${baseUrl}/tag`);
    await byId(page, 'list-create').waitFor();
    // The shared organisation gathers other files' tags (a dozen by now): a page of 100 keeps this file's three on it.
    await byId(page, 'list-page-size').selectOption('100');
    // Wait for the list to load before counting what is already there (the seeded tags, if any are left).
    await byId(page, 'list-row')
      .first()
      .waitFor({ timeout: 5_000 })
      .catch(() => {});
    seeded = await total();
    for (const name of NAMES) {
      await byId(page, 'list-create').click();
      await page.waitForURL(/\/tag\/create$/);
      await byId(page, 'form-field-name').fill(name);
      const created = apiResponse(page, 'POST', '/api/v1/tag');
      await byId(page, 'form-submit').click();
      expect((await created).status()).toBe(201);
      // The form itself goes back to the list after a create.
      await page.waitForURL(/\/tag$/);
      await byId(page, 'list-row').filter({ hasText: name }).waitFor();
    }
    await eventually(total, seeded + 3);
    // Default order is by priority: the order they were created in.
    await eventually(names, NAMES);
  });

  it("reaches the other sections of the contacts group from the tag list's tabs", async () => {
    await byId(page, 'section-tab-fields').click();
    await page.waitForURL(/\/field$/);
    await byId(page, 'section-tab-blacklist').click();
    await page.waitForURL(/\/blacklist$/);
    await byId(page, 'section-tab-tags').click();
    await page.waitForURL(/\/tag$/);
    await eventually(names, NAMES);
    await screenshot(page, 'section-tabs');
    // On a phone the tabs scroll sideways rather than wrap.
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(phone, baseUrl);
    await phone.goto(`${baseUrl}/tag`);
    await byId(phone, 'section-tabs').waitFor();
    await screenshot(phone, 'section-tabs-phone');
    await phone.close();
  });

  it('searches', async () => {
    await byId(page, 'list-search').fill('charl');
    await eventually(names, ['Charlie']);
    await eventually(total, 1);
    await byId(page, 'list-search').fill('');
    await eventually(names, NAMES);
  });

  it('sorts by name both ways', async () => {
    const sortName = byId(page, 'sort-name');
    await sortName.click();
    await eventually(() => sortName.getAttribute('data-sort'), 'asc');
    await eventually(names, BY_NAME);
    await sortName.click();
    await eventually(() => sortName.getAttribute('data-sort'), 'desc');
    await eventually(names, [...BY_NAME].reverse());
  });

  it('drag-reorders rows by priority and the order survives a reload', async () => {
    const sortPriority = byId(page, 'sort-priority');
    await sortPriority.click();
    await eventually(() => sortPriority.getAttribute('data-sort'), 'asc');
    await eventually(names, NAMES);

    // Bravo (first) dragged down onto Alpha (last).
    const rows = byId(page, 'list-row');
    const saved = apiResponse(page, 'POST', '/api/v1/tag/priorities');
    await dragRow(page, rows.filter({ hasText: 'Bravo' }), rows.filter({ hasText: 'Alpha' }));
    expect((await saved).status()).toBe(200);
    const reordered = ['Charlie', 'Alpha', 'Bravo'];
    await eventually(names, reordered);

    await page.reload();
    await byId(page, 'list-row').first().waitFor();
    expect(await byId(page, 'sort-priority').getAttribute('data-sort')).toBe('asc');
    await eventually(names, reordered);
    const file = await screenshot(page, 'tags-list');
    expect(file).toMatch(/tags-list\.png$/);
  });

  it('deletes one tag through its row action', async () => {
    const row = byId(page, 'list-row').filter({ hasText: 'Bravo' });
    await byId(row, 'row-delete').click();
    const deleted = apiResponse(page, 'DELETE', /\/api\/v1\/tag\/\d+$/);
    await byId(page, 'confirm-ok').click();
    expect((await deleted).status()).toBe(200);
    await eventually(names, ['Charlie', 'Alpha']);
    await eventually(total, seeded + 2);
  });

  it('deletes the selected tags', async () => {
    await byId(page, 'list-select-all').click();
    await byId(page, 'list-delete-selected').click();
    const deleted = apiResponse(page, 'DELETE', '/api/v1/tag');
    await byId(page, 'confirm-ok').click();
    expect((await deleted).status()).toBe(200);
    await eventually(async () => byId(page, 'list-row').count(), 0);
    await eventually(total, 0);
  });

  it('switches the language to Deutsch', async () => {
    const nav = byId(page, 'nav-contacts');
    const before = (await nav.innerText()).trim();
    await chooseLanguage(page, 'Deutsch');
    await eventually(async () => (await nav.innerText()).trim() !== before, true);
    expect((await nav.innerText()).trim()).toBe('Kontakte');
  });

  it('signs out and lands on the sign-in form', async () => {
    await byId(page, 'account-menu').click();
    await byId(page, 'signout').click();
    await byId(page, 'signin-username').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
  });
});

/** Picks a language by its label in the language switcher (a native select). */
async function chooseLanguage(page: Page, label: string): Promise<void> {
  await byId(page, 'language-switcher').selectOption({ label });
}
