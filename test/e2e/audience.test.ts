import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId, dragRow, eventually, listSettled, pickOptions, signIn } from './console';

const baseUrl = inject('baseUrl');

// One field of each type (spec 9: number, text, select, multiselect, boolean).
// The platform is shared by every browser test file: names and addresses here are this file's own, lists are
// read through a search for them, and what the file created is deleted at the end.
const FIELDS = [
  { name: 'Age', alias: 'aud_age', type: 'Number' },
  { name: 'City', alias: 'aud_city', type: 'Text' },
  { name: 'Level', alias: 'aud_level', type: 'Select', options: ['Gold', 'Silver'] },
  { name: 'Topics', alias: 'aud_topics', type: 'Multi-select', options: ['News', 'Sales'] },
  { name: 'Active', alias: 'aud_active', type: 'Yes / no' },
];
const FIELD_NAMES = FIELDS.map((f) => f.name);
const DOMAIN = 'aud-e2e.test';

// Three rows after the header: two good ones and one whose e-mail is not an address (rejected).
const CSV = [
  'email,name,phone,level,tags',
  `bob@${DOMAIN},Bob Imported,+15550002,Silver,vip`,
  `carol@${DOMAIN},Carol Imported,,Gold,`,
  'not-an-email,Broken Row,,,',
  '',
].join('\n');

describe('audience screens in the console (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;
  let tmp: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'relay-audience-'));
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1360, height: 1000 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const cellTexts = async (column: string) => byId(page, 'list-row').locator(`[data-column="${column}"]`).allInnerTexts();

  it('signs in; the Contacts entry leads to the contact list', async () => {
    await signIn(page, baseUrl);
    await byId(page, 'nav-contacts').click();
    await page.waitForURL(/\/contact$/);
    await byId(page, 'list-screen').waitFor();
    expect(await byId(page, 'list-screen').getAttribute('data-list')).toBe('contact');
  });

  it('creates a field of every type (options only for the select types)', async () => {
    for (const field of FIELDS) {
      await page.goto(`${baseUrl}/field/create`);
      await byId(page, 'form-field-name').fill(field.name);
      await byId(page, 'form-field-alias').fill(field.alias);
      await pickOptions(page, byId(page, 'form-field-type'), [field.type]);
      if (field.options) {
        for (const [i, option] of field.options.entries()) {
          await byId(page, 'option-add').click();
          await byId(page, 'option-value').nth(i).fill(option);
        }
      } else {
        expect(await byId(page, 'form-field-options').count()).toBe(0);
      }
      const created = apiResponse(page, 'POST', '/api/v1/field');
      await byId(page, 'form-submit').click();
      const answer = await created;
      expect(answer.status()).toBe(201);
      const body = JSON.parse(answer.request().postData() ?? '{}');
      expect(body.options === undefined).toBe(!field.options);
      await page.waitForURL(/\/field$/);
    }
    await listSettled(page);
    await eventually(async () => (await cellTexts('name')).filter((name) => FIELD_NAMES.includes(name)), FIELD_NAMES);
    // The field list is loaded whole: no page size, searched in the browser.
    expect(await byId(page, 'list-page-size').count()).toBe(0);
    await byId(page, 'list-search').fill('lev');
    await eventually(() => cellTexts('name'), ['Level']);
    expect((await cellTexts('options'))[0]).toContain('Gold');
    await byId(page, 'list-search').fill('');

    // Drag-reorder works on the whole-list screen too, and the order is saved.
    const ours = async () => (await cellTexts('name')).filter((name) => FIELD_NAMES.includes(name));
    await eventually(ours, FIELD_NAMES);
    const rows = byId(page, 'list-row');
    const saved = apiResponse(page, 'POST', '/api/v1/field/priorities');
    await dragRow(page, rows.filter({ hasText: 'Active' }), rows.filter({ hasText: 'Age' }));
    expect((await saved).status()).toBe(200);
    const reordered = ['Active', 'Age', 'City', 'Level', 'Topics'];
    await eventually(ours, reordered);
    await page.reload();
    await listSettled(page);
    await eventually(ours, reordered);

    // The type cannot change once the field exists.
    await byId(page, 'list-row').filter({ hasText: 'Topics' }).locator('[data-testid="row-edit"]').click();
    await page.waitForURL(/\/field\/update\/\d+$/);
    expect(await byId(page, 'form-field-type').isDisabled()).toBe(true);
    expect(await inputValues(byId(page, 'option-value'))).toEqual(['News', 'Sales']);
  });

  it('creates a tag to use on contacts', async () => {
    await page.goto(`${baseUrl}/tag/create`);
    await byId(page, 'form-field-name').fill('vip');
    const created = apiResponse(page, 'POST', '/api/v1/tag');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
  });

  it('creates a contact with two addresses, a tag and every custom field, and sees them after a reload', async () => {
    await page.goto(`${baseUrl}/contact`);
    await byId(page, 'list-create').click();
    await page.waitForURL(/\/contact\/create$/);
    await byId(page, 'form-field-name').fill('Ann Example');

    // The e-mail is checked live in its type's format.
    const values = byId(page, 'address-value');
    await values.nth(0).fill('ann@');
    await page.getByText('Invalid email address. Please enter a valid email').waitFor();
    await values.nth(0).fill(`ann@${DOMAIN}`);
    await page.getByText('Invalid email address. Please enter a valid email').waitFor({ state: 'detached' });
    await byId(page, 'address-add').click();
    await byId(page, 'address-type').nth(1).selectOption('phone');
    await values.nth(1).fill('15550001');
    await page.getByText("Invalid phone number. It must start with '+' and contain only digits").waitFor();
    await values.nth(1).fill('+15550001');

    await pickOptions(page, byId(page, 'form-field-tags'), ['vip']);
    await byId(page, 'attribute-aud_age').fill('42');
    await byId(page, 'attribute-aud_city').fill('Lisbon');
    await pickOptions(page, byId(page, 'attribute-aud_level'), ['Gold']);
    await pickOptions(page, byId(page, 'attribute-aud_topics'), ['News', 'Sales']);
    await byId(page, 'attribute-aud_active').check({ force: true });

    const created = apiResponse(page, 'POST', '/api/v1/contact');
    await byId(page, 'form-submit').click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const contact = (await answer.json()).data;
    expect(contact.addresses.map((a: { type: string; value: string }) => `${a.type}:${a.value}`)).toEqual([`email:ann@${DOMAIN}`, 'phone:+15550001']);
    expect(contact.attributes).toHaveLength(5);
    await page.waitForURL(/\/contact$/);

    // The row shows both addresses and the tag chip.
    const row = byId(page, 'list-row').filter({ hasText: 'Ann Example' });
    await row.waitFor();
    expect(await row.locator('[data-column="addresses"]').innerText()).toContain(`ann@${DOMAIN}`);
    expect(await row.locator('[data-column="addresses"]').innerText()).toContain('+15550001');
    expect(await byId(row, 'tag-chip').allInnerTexts()).toEqual(['vip']);

    // A click on the row opens the contact's read-only page; Edit is one button away.
    await row.locator('[data-column="name"]').click();
    await page.waitForURL(new RegExp(`/contact/view/${contact.id}$`));
    await byId(page, 'contact-view').waitFor();
    expect(await byId(page, 'contact-addresses').innerText()).toContain(`ann@${DOMAIN}`);
    await eventually(async () => (await byId(page, 'contact-field').allInnerTexts()).some((text) => text.includes('Lisbon')), true);
    await byId(page, 'contact-bounces').waitFor();
    await byId(page, 'contact-messages').waitFor();
    await screenshot(page, 'audience-contact-view');
    expect(await byId(page, 'contact-edit').getAttribute('href')).toBe(`/contact/update/${contact.id}`);

    await page.goto(`${baseUrl}/contact/update/${contact.id}`);
    await page.reload();
    await expectValue(page, 'form-field-name', 'Ann Example');
    expect(await inputValues(byId(page, 'address-value'))).toEqual([`ann@${DOMAIN}`, '+15550001']);
    // Saved addresses keep their type.
    expect(await Promise.all((await byId(page, 'address-type').all()).map((select) => select.isDisabled()))).toEqual([true, true]);
    await expectValue(page, 'attribute-aud_age', '42');
    await expectValue(page, 'attribute-aud_city', 'Lisbon');
    await expectValue(page, 'attribute-aud_level', 'Gold');
    expect(await page.locator('[data-testid="form-field-attributes"] .mantine-Pill-root').allInnerTexts()).toEqual(['News', 'Sales']);
    expect(await byId(page, 'attribute-aud_active').isChecked()).toBe(true);
    expect(await page.locator('[data-testid="entity-form"] .mantine-Pill-root').first().innerText()).toBe('vip');
    await screenshot(page, 'audience-contact-form');
  });

  it('imports a CSV in three steps and sees the live notification and the imported contacts', async () => {
    // A tag to put on every imported contact (the review step's "tag every imported contact").
    expect((await apiFromPage(page, 'POST', '/tag', { name: 'Fair 2026' })).status).toBe(201);
    const file = path.join(tmp, 'people.csv');
    writeFileSync(file, CSV);
    await page.goto(`${baseUrl}/contact/import`);
    await byId(page, 'import-wizard').waitFor();
    expect(await byId(page, 'import-skip-first-line').isChecked()).toBe(true);

    // Step 1: a header-only file has no rows for import.
    const empty = path.join(tmp, 'empty.csv');
    writeFileSync(empty, 'email,name\n');
    await byId(page, 'import-file').setInputFiles(empty);
    expect(await byId(page, 'import-upload-error').innerText()).toBe('The file does not contain any rows for import.');
    expect(await byId(page, 'import-next').isDisabled()).toBe(true);

    await byId(page, 'import-file').setInputFiles(file);
    await eventually(async () => byId(page, 'import-preview-row').count(), 3);
    await byId(page, 'import-next').click();

    // Step 2: defaults from the header names.
    await byId(page, 'import-mapping').waitFor();
    const targets = byId(page, 'mapping-target');
    expect(await Promise.all((await targets.all()).map((select) => select.locator('option:checked').innerText()))).toEqual([
      'Address: Email',
      'Name',
      'Address: Phone',
      'Field: Level',
      'Tags',
    ]);
    // Without any address column the step names the address types; without a name column it says so.
    await targets.nth(0).selectOption('ignore');
    await targets.nth(2).selectOption('ignore');
    await targets.nth(1).selectOption('ignore');
    await byId(page, 'import-next').click();
    const problems = await byId(page, 'import-mapping-error').innerText();
    expect(problems).toContain('At least one column must be mapped to an address type: Email, Phone');
    expect(problems).toContain("Field 'Name' is required");
    await targets.nth(0).selectOption('address:email');
    await targets.nth(1).selectOption('name');
    await targets.nth(2).selectOption('address:phone');
    await byId(page, 'import-mapping-error').waitFor({ state: 'detached' });
    await byId(page, 'import-next').click();

    // Step 3: review, then start: upload (with progress), create, "you will be notified".
    await eventually(async () => (await byId(page, 'review-rows').innerText()).trim(), '3');
    expect(await byId(page, 'review-file').innerText()).toContain('people.csv');
    await pickOptions(page, byId(page, 'import-tag-all'), ['Fair 2026']);
    const uploaded = apiResponse(page, 'POST', '/api/v1/import/upload');
    const started = apiResponse(page, 'POST', '/api/v1/import');
    await byId(page, 'import-start').click();
    expect((await uploaded).status()).toBe(201);
    expect((await started).status()).toBe(201);
    // One notice that it started (on the page), not a toast saying the same beside it.
    await byId(page, 'import-started').waitFor();
    expect(await byId(page, 'import-started').innerText()).toContain('You will be notified when the import is complete');
    expect(await page.getByText('You will be notified when the import is complete', { exact: true }).count()).toBe(0);

    // The live channel tells this page when the import is done: no reload.
    const notice = byId(page, 'import-finished');
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.innerText()).toContain('Import complete');
    expect(await notice.innerText()).toContain('2 created, 0 updated, 1 rejected');
    await screenshot(page, 'audience-import');

    const history = byId(page, 'list-row').filter({ hasText: 'people.csv' });
    await eventually(async () => byId(history, 'import-status').getAttribute('data-status'), 'success');
    expect(await byId(history, 'import-created').innerText()).toBe('2');
    await byId(history, 'import-rejected').click();
    const rejection = byId(page, 'import-rejection');
    await rejection.waitFor();
    expect(await rejection.innerText()).toContain('not-an-email');
    await page.keyboard.press('Escape');

    await page.goto(`${baseUrl}/contact`);
    await byId(page, 'list-search').fill('Imported');
    await eventually(async () => (await cellTexts('name')).sort(), ['Bob Imported', 'Carol Imported']);
    // The search looks through addresses too.
    await byId(page, 'list-search').fill(DOMAIN);
    await eventually(async () => (await cellTexts('name')).sort(), ['Ann Example', 'Bob Imported', 'Carol Imported']);
    // Bob's own tag from the file, and the one every imported contact got; Ann (made in the form) has hers only.
    const bob = byId(page, 'list-row').filter({ hasText: 'Bob Imported' });
    expect((await byId(bob, 'tag-chip').allInnerTexts()).sort()).toEqual(['Fair 2026', 'vip']);
    const carol = byId(page, 'list-row').filter({ hasText: 'Carol Imported' });
    expect(await byId(carol, 'tag-chip').allInnerTexts()).toEqual(['Fair 2026']);
  });

  it('imports a German Excel file (semicolons, Windows-1252) and creates a field from its unmatched column', async () => {
    // Excel on German Windows saves ';'-separated Windows-1252: € „ “ ” ’ are the bytes 0x80 0x84 0x93 0x94 0x92.
    const high: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93, '”': 0x94, '’': 0x92, ö: 0xf6 };
    const cp1252 = (text: string) => Buffer.from([...text].map((ch) => high[ch] ?? ch.charCodeAt(0)));
    const file = path.join(tmp, 'excel-de.csv');
    writeFileSync(file, cp1252('Name;E-Mail;Motto\r\nDora Jöst;dora@aud-excel.test;€ „hallo“ ”it’s\r\n"Kaputt;x@aud-excel.test;y\r\n'));
    await page.goto(`${baseUrl}/contact/import`);
    await byId(page, 'import-wizard').waitFor();
    await byId(page, 'import-file').setInputFiles(file);
    await eventually(async () => byId(page, 'import-preview-row').count(), 1);
    expect(await byId(page, 'import-delimiter').inputValue()).toBe('semicolon');
    expect(await byId(page, 'import-encoding').inputValue()).toBe('windows-1252');
    expect(await byId(page, 'import-preview-row').innerText()).toContain('€ „hallo“ ”it’s');
    expect(await byId(page, 'import-parse-error').innerText()).toContain('Row 3:');
    await screenshot(page, 'audience-import-format');
    await byId(page, 'import-next').click();

    const targets = byId(page, 'mapping-target');
    await byId(page, 'import-mapping').waitFor();
    await targets.nth(2).selectOption('new-field');
    expect(await byId(page, 'new-field-name').inputValue()).toBe('Motto');
    const field = apiResponse(page, 'POST', '/api/v1/field');
    await byId(page, 'new-field-create').click();
    const made = (await (await field).json()) as { data: { id: number } };
    await eventually(async () => targets.nth(2).inputValue(), `field:${made.data.id}`);
    await screenshot(page, 'audience-import-new-field');
    await byId(page, 'import-next').click();
    await eventually(async () => (await byId(page, 'review-rows').innerText()).trim(), '2');
    await byId(page, 'import-start').click();
    const notice = byId(page, 'import-finished').filter({ hasText: 'excel-de.csv' });
    await notice.waitFor({ timeout: 60_000 });
    expect(await notice.innerText()).toContain('1 created, 0 updated, 1 rejected');

    const found = await apiFromPage<{ items: { id: number; attributes: { field_id: number; value: unknown }[] }[] }>(
      page,
      'GET',
      '/contact?search=aud-excel.test',
    );
    expect(found.body.items).toHaveLength(1);
    expect(found.body.items[0].attributes.find((a) => a.field_id === made.data.id)?.value).toBe('€ „hallo“ ”it’s');
    expect((await apiFromPage(page, 'DELETE', `/contact/${found.body.items[0].id}`)).status).toBe(200);
    expect((await apiFromPage(page, 'DELETE', `/field/${made.data.id}`)).status).toBe(200);
  });

  it('filters contacts by tag and by a custom field', async () => {
    await page.goto(`${baseUrl}/contact`);
    await listSettled(page);
    expect(await byId(page, 'list-search').inputValue()).toBe(DOMAIN); // the saved search came back
    await pickOptions(page, byId(page, 'filter-tags'), ['vip']);
    await eventually(async () => (await cellTexts('name')).sort(), ['Ann Example', 'Bob Imported']);
    await byId(page, 'filters-clear').click();
    await eventually(async () => (await cellTexts('name')).length, 3);
    await byId(page, 'filter-address').fill('carol@');
    await eventually(async () => cellTexts('name'), ['Carol Imported']);
    await byId(page, 'filters-clear').click();
    await pickOptions(page, byId(page, 'filter-attribute-field'), ['Level']);
    // Gold: Ann (set in the form) and Carol (from the CSV); Bob is Silver.
    await pickOptions(page, byId(page, 'filter-attribute-value'), ['Gold']);
    await eventually(async () => (await cellTexts('name')).sort(), ['Ann Example', 'Carol Imported']);
    await byId(page, 'filters-clear').click();
    await eventually(async () => (await cellTexts('name')).length, 3);
  });

  it('blacklists an address, checked in its type’s format', async () => {
    await page.goto(`${baseUrl}/blacklist`);
    await byId(page, 'list-create').click();
    await page.waitForURL(/\/blacklist\/create$/);
    await byId(page, 'form-field-value').fill('spam@');
    await page.getByText('Invalid email address. Please enter a valid email').waitFor();
    await byId(page, 'form-field-value').fill('Spam@Example.com');
    await byId(page, 'form-field-info').fill('Complained twice');
    const created = apiResponse(page, 'POST', '/api/v1/blacklist');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/blacklist$/);
    const row = byId(page, 'list-row').filter({ hasText: 'spam@example.com' });
    await row.waitFor();
    expect(await row.locator('[data-column="info"]').innerText()).toBe('Complained twice');
    // List and create only: no edit action.
    expect(await byId(row, 'row-edit').count()).toBe(0);
  });

  it('creates and renames a subscription category', async () => {
    await page.goto(`${baseUrl}/contact`);
    await byId(page, 'contact-more').click();
    await byId(page, 'link-subscriptions').click();
    await page.waitForURL(/\/subscription$/);
    await byId(page, 'list-create').click();
    await byId(page, 'form-field-name').fill('Audience news');
    const created = apiResponse(page, 'POST', '/api/v1/subscription');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    const row = byId(page, 'list-row').filter({ hasText: 'Audience news' });
    await byId(row, 'row-edit').click();
    await page.waitForURL(/\/subscription\/update\/\d+$/);
    await byId(page, 'form-field-name').fill('Audience weekly');
    const updated = apiResponse(page, 'PUT', /\/api\/v1\/subscription\/\d+$/);
    await byId(page, 'form-submit').click();
    expect((await updated).status()).toBe(200);
    await byId(page, 'list-row').filter({ hasText: 'Audience weekly' }).waitFor();
  });

  it('reads the activity log and finds what was done, filtered by entity', async () => {
    await page.goto(`${baseUrl}/activity-log`);
    await listSettled(page);
    const rows = byId(page, 'list-row');
    const onlyEntity = async (label: string) => {
      const entities = await cellTexts('entity');
      return entities.length > 0 && entities.every((text) => text.startsWith(label));
    };
    await byId(page, 'filter-entity').selectOption('contact');
    await eventually(() => onlyEntity('Contact'), true);
    await eventually(async () => (await cellTexts('new_value')).some((text) => text.includes('Ann Example')), true);
    expect(await rows.first().locator('[data-column="browser"]').innerText()).toMatch(/chrom/i);

    await byId(page, 'filter-entity').selectOption('blacklist');
    await eventually(() => onlyEntity('Blacklist entry'), true);
    await eventually(async () => (await cellTexts('new_value')).some((text) => text.includes('spam@example.com')), true);

    await byId(page, 'filter-entity').selectOption('field');
    await byId(page, 'list-search').fill('Level');
    await eventually(() => onlyEntity('Field'), true);
    const created = async () => {
      const texts = await byId(page, 'list-row').allInnerTexts();
      return texts.some((text) => /created/i.test(text) && /\bname\b/.test(text) && /\bLevel\b/.test(text));
    };
    await eventually(created, true);
    await screenshot(page, 'audience-activity-log');
  });

  it('deletes what it created: contacts (all that match the search), fields, the tag, the blacklist entry and the subscription', async () => {
    await page.goto(`${baseUrl}/contact`);
    await listSettled(page);
    if (await byId(page, 'filters-clear').count()) await byId(page, 'filters-clear').click();
    await byId(page, 'list-search').fill(DOMAIN);
    await eventually(async () => (await cellTexts('name')).length, 3);
    await byId(page, 'list-delete-all').click();
    const contacts = apiResponse(page, 'DELETE', '/api/v1/contact');
    await byId(page, 'confirm-ok').click();
    expect((await contacts).status()).toBe(200);
    await eventually(async () => byId(page, 'list-row').count(), 0);
    await byId(page, 'list-search').fill('');

    await page.goto(`${baseUrl}/field`);
    await listSettled(page);
    for (const name of FIELD_NAMES) await byId(byId(page, 'list-row').filter({ hasText: name }), 'row-select').check();
    await byId(page, 'list-delete-selected').click();
    const fields = apiResponse(page, 'DELETE', '/api/v1/field');
    await byId(page, 'confirm-ok').click();
    expect((await fields).status()).toBe(200);
    await eventually(async () => (await cellTexts('name')).filter((name) => FIELD_NAMES.includes(name)), []);

    for (const [list, text] of [
      ['tag', 'vip'],
      ['blacklist', 'spam@example.com'],
      ['subscription', 'Audience weekly'],
    ]) {
      await page.goto(`${baseUrl}/${list}`);
      await listSettled(page);
      await byId(byId(page, 'list-row').filter({ hasText: text }), 'row-delete').click();
      const deleted = apiResponse(page, 'DELETE', new RegExp(`/api/v1/${list}/\\d+$`));
      await byId(page, 'confirm-ok').click();
      expect((await deleted).status()).toBe(200);
    }
  });
});

/** The values of all inputs a locator matches, in order. */
async function inputValues(inputs: Locator): Promise<string[]> {
  return Promise.all((await inputs.all()).map((input) => input.inputValue()));
}

/** The value an input (or a Mantine select's input) shows. */
async function expectValue(page: Page, testId: string, value: string): Promise<void> {
  await eventually(async () => byId(page, testId).inputValue(), value);
}
