import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId, eventually, listSettled, pickOptions, searchAndPick, signIn } from './console';

// Channels in the console, against the real platform (wrangler dev, send queue, SMTP into the local mail
// catcher): an smtp integration with a connection test, a sender, an html template written in the rich-text
// editor (placeholder, link, attachment), its preview for a contact, a test message found rendered in the
// catcher, and a campaign.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const smtpPort = inject('mailSmtpPort');

const INTEGRATION = 'E2E SMTP';
const SENDER = { value: 'news@acme.test', name: 'Acme News' };
const CONTACT = { name: 'Grace Hopper', email: 'grace@example.com' };
const TEMPLATE = 'E2E Welcome';
const SUBJECT = 'Welcome to the offer';
const OFFER = 'https://example.com/offer';

interface CaughtMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; mime_type: string; size: number }[];
}

async function caughtMail(): Promise<CaughtMail[]> {
  return (await fetch(`${mailUrl}/messages.json`)).json() as Promise<CaughtMail[]>;
}

describe('channels in the console (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let page: Page;
  let templateId = 0;

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const row = (text: string | RegExp) => byId(page, 'list-row').filter({ hasText: text });

  it('signs in', async () => {
    await signIn(page, baseUrl);
  });

  it('adds an smtp integration for the local mail catcher and tests its connection', async () => {
    await page.goto(`${baseUrl}/integration`);
    await listSettled(page);
    await byId(page, 'list-create').click();
    await page.waitForURL(/\/integration\/create$/);
    await byId(page, 'form-field-name').fill(INTEGRATION);
    expect(await byId(page, 'form-field-type').inputValue()).toBe('SMTP');
    await byId(page, 'form-field-details.server').fill('127.0.0.1');
    await byId(page, 'form-field-details.port').fill(String(smtpPort));
    // The catcher speaks plain SMTP: no STARTTLS.
    await byId(page, 'form-field-details.tls').setChecked(false, { force: true });
    await byId(page, 'form-field-user').fill('e2e-user');
    await byId(page, 'form-field-password').fill('e2e-secret');
    const created = apiResponse(page, 'POST', '/api/v1/integration');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/integration$/);

    const integration = row(INTEGRATION);
    await integration.waitFor();
    expect(await byId(integration, 'row-credentials').count()).toBe(1);
    expect(await byId(integration, 'row-sync').count()).toBe(0); // smtp has nothing to sync
    expect(await integration.locator('[data-status]').getAttribute('data-status')).toBe('active');

    await byId(integration, 'row-edit').click();
    await page.waitForURL(/\/integration\/update\/\d+$/);
    const tested = apiResponse(page, 'POST', /\/api\/v1\/integration\/\d+\/test$/);
    await byId(page, 'integration-test').click();
    expect((await tested).status()).toBe(200);
    const result = byId(page, 'integration-test-result');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect((await result.innerText()).trim().length).toBeGreaterThan(10);
  });

  it('changes the integration credentials and goes back to the refetched list', async () => {
    await page.goto(`${baseUrl}/integration`);
    await listSettled(page);
    await byId(row(INTEGRATION), 'row-credentials').click();
    await page.waitForURL(/\/integration\/update\/\d+\/credentials$/);
    expect(await byId(page, 'form-field-user').inputValue()).toBe('e2e-user');
    expect(await byId(page, 'form-field-password').inputValue()).toBe(''); // secrets are never shown
    await byId(page, 'form-field-password').fill('e2e-secret-2');
    const saved = apiResponse(page, 'PATCH', /\/api\/v1\/integration\/\d+\/smtp\/credentials$/);
    const refetched = apiResponse(page, 'GET', '/api/v1/integration');
    await byId(page, 'form-submit').click();
    expect((await saved).status()).toBe(200);
    await page.waitForURL(/\/integration$/);
    expect((await refetched).status()).toBe(200);
    await page.getByRole('alert').filter({ hasText: 'Credentials saved' }).first().waitFor();
  });

  it('syncs the seeded twilio integration after a confirmation: merging at once, then active again', async () => {
    await listSettled(page);
    const twilio = byId(page, 'list-row')
      .filter({ has: page.locator('[data-column="type"]', { hasText: 'Twilio' }) })
      .first();
    await twilio.waitFor();
    await byId(twilio, 'row-sync').click();
    const synced = apiResponse(page, 'POST', /\/api\/v1\/integration\/\d+\/sync$/);
    await byId(page, 'confirm-ok').click();
    await eventually(() => twilio.locator('[data-status]').getAttribute('data-status'), 'merging', 5_000);
    expect((await synced).status()).toBe(202);
    await page.getByRole('alert').filter({ hasText: 'started' }).first().waitFor();
    await eventually(() => twilio.locator('[data-status]').getAttribute('data-status'), 'active', 60_000);
  });

  it('adds an email sender (checking the address in the browser first)', async () => {
    await page.goto(`${baseUrl}/sender/create`);
    await byId(page, 'form-field-value').waitFor();
    expect(await byId(page, 'form-field-type').inputValue()).toBe('Email');
    await pickOptions(page, byId(page, 'form-field-integration_id'), [`${INTEGRATION} (smtp)`]);
    await byId(page, 'form-field-value').fill('not-an-email');
    await byId(page, 'form-submit').click();
    await byId(page, 'form-error').waitFor();
    expect(await page.getByText('Invalid email address. Please enter a valid email').count()).toBeGreaterThan(0);

    await byId(page, 'form-field-value').fill(SENDER.value);
    await byId(page, 'form-field-name').fill(SENDER.name);
    const created = apiResponse(page, 'POST', '/api/v1/sender');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/sender$/);
    await row(SENDER.value).waitFor();
    expect(await row(SENDER.value).locator('[data-column="integration"]').innerText()).toBe(INTEGRATION);
  });

  it('creates a contact through the API', async () => {
    const answer = await apiFromPage(page, 'POST', '/contact', { name: CONTACT.name, addresses: [{ type: 'email', value: CONTACT.email }] });
    expect(answer.status).toBe(201);
  });

  it('writes an html template with a placeholder, a link, bold text and an attachment', async () => {
    await page.goto(`${baseUrl}/template/create`);
    await byId(page, 'form-field-name').fill(TEMPLATE);
    expect(await byId(page, 'form-field-type').inputValue()).toBe('HTML');
    // An html template goes out by email: it has a subject of its own (the mail never takes the template's name).
    await byId(page, 'form-field-subject').fill(SUBJECT);

    await byId(page, 'placeholder-help').getByRole('button', { name: 'Placeholders' }).click();
    const editor = byId(page, 'form-field-body-content');
    await editor.click();
    await page.keyboard.type('Hello ');
    await byId(page, 'placeholder-insert-contact.name').click();
    await page.keyboard.type('! Read our offer today.');
    // Select the word "offer" and link it.
    await page.keyboard.press('End');
    for (let i = 0; i < ' today.'.length; i++) await page.keyboard.press('ArrowLeft');
    for (let i = 0; i < 'offer'.length; i++) await page.keyboard.press('Shift+ArrowLeft');
    await byId(page, 'rte-link').click();
    await byId(page, 'rte-link-url').fill(OFFER);
    await byId(page, 'rte-link-save').click();
    await editor.locator('a', { hasText: 'offer' }).waitFor();
    // A new paragraph at the end, in bold (a person's pace: the editor takes the new caret before the next key).
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.waitForTimeout(200);
    await page.keyboard.press('Enter');
    await byId(page, 'rte-bold').click();
    await page.keyboard.type('Thanks');

    // The HTML the editor made, in its source view.
    await byId(page, 'rte-source').click();
    const source = await byId(page, 'form-field-body-source').inputValue();
    expect(source).toBe(`<p>Hello {{ contact.name }}! Read our <a href="${OFFER}">offer</a> today.</p><p><strong>Thanks</strong></p>`);
    await byId(page, 'rte-source').click();

    // Files are checked in the browser: an unsupported type and a too large file are refused, with their names.
    const input = byId(page, 'attachments-input');
    await input.setInputFiles([
      { name: 'terms.txt', mimeType: 'text/plain', buffer: Buffer.from('Terms and conditions of the offer.\n') },
      { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
    ]);
    await byId(page, 'attachments-error').filter({ hasText: 'File tool.exe has an unsupported type' }).waitFor();
    await input.setInputFiles([{ name: 'big.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(15_000_001) }]);
    await byId(page, 'attachments-error').filter({ hasText: 'File big.pdf is larger than 15 MB' }).waitFor();
    expect(await byId(page, 'attachment-pending').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')))).toEqual(['terms.txt']);

    const created = apiResponse(page, 'POST', '/api/v1/template');
    const uploaded = apiResponse(page, 'POST', /\/api\/v1\/template\/\d+\/attachment$/);
    await byId(page, 'form-submit').click();
    const createdAnswer = await created;
    expect(createdAnswer.status()).toBe(201);
    templateId = ((await createdAnswer.json()) as { data: { id: number } }).data.id;
    expect((await uploaded).status()).toBe(201);
    await page.waitForURL(/\/template$/);
    await row(TEMPLATE).waitFor();
  });

  it('reopens the template with its body and attachment', async () => {
    await byId(row(TEMPLATE), 'row-edit').click();
    await page.waitForURL(new RegExp(`/template/update/${templateId}$`));
    await byId(page, 'attachment-row').filter({ hasText: 'terms.txt' }).waitFor();
    expect(await byId(page, 'form-field-body-content').innerText()).toContain('Hello {{ contact.name }}! Read our offer today.');
    expect(await byId(page, 'form-field-type').isDisabled()).toBe(true); // the type is fixed once created
    // "Send test message" is on the template's page, in view as it opens (the README's "open it, and 'Send test message'").
    expect(await byId(page, 'template-send-test').isVisible()).toBe(true);
  });

  it('previews the template for a contact in a sandboxed frame', async () => {
    await byId(page, 'template-preview').click();
    await page.waitForURL(new RegExp(`/template/preview/${templateId}$`));
    const frame = byId(page, 'preview-body');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    // It opens for no contact: placeholders show their default values (this one has none), not the newest contact's data.
    await eventually(async () => ((await frame.getAttribute('srcdoc')) ?? '').includes('Hello !'), true);
    expect(await byId(page, 'preview-contact').inputValue()).toBe('');

    await searchAndPick(page, byId(page, 'preview-contact'), 'Grace', new RegExp(CONTACT.name));
    await eventually(async () => (await frame.getAttribute('srcdoc'))?.includes(`Hello ${CONTACT.name}!`), true);
    expect(await frame.getAttribute('srcdoc')).toContain(`<a href="${OFFER}">offer</a>`);
    // An html template has no plain text of its own: the preview shows the one mail clients get, derived from the html.
    await eventually(async () => (await byId(page, 'preview-plain').innerText()).includes(`Hello ${CONTACT.name}!`), true);
    await screenshot(page, 'channels-template-preview');
  });

  it('sends a test message and finds it rendered in the local SMTP server', async () => {
    await byId(page, 'preview-send-test').click();
    await searchAndPick(page, byId(page, 'test-message-sender'), 'news@', `${SENDER.name} <${SENDER.value}>`);
    await eventually(() => byId(page, 'test-message-to').inputValue(), CONTACT.email); // filled in from the contact
    const sent = apiResponse(page, 'POST', new RegExp(`/api/v1/template/${templateId}/test$`));
    await byId(page, 'test-message-send').click();
    expect((await sent).status()).toBe(202);
    const result = byId(page, 'test-message-result');
    await result.waitFor();
    expect(await result.getAttribute('data-status')).toBe('queued');
    expect(Number(await result.getAttribute('data-message-id'))).toBeGreaterThan(0);

    let mail: CaughtMail | undefined;
    await eventually(
      async () => {
        mail = (await caughtMail()).find((m) => m.to.includes(CONTACT.email) && m.subject === SUBJECT);
        return Boolean(mail);
      },
      true,
      60_000,
    );
    expect(mail!.from).toBe(SENDER.value);
    expect(mail!.html).toContain(`Hello ${CONTACT.name}!`);
    // Test messages are tracked like broadcasts: the link goes through the click redirect, which leads to the offer.
    const redirect = /href="(http:\/\/acme\.localhost:\d+\/t\/c\/[^"]+)">offer</.exec(mail!.html)?.[1];
    expect(redirect).toBeTruthy();
    const answer = await fetch(redirect!.replace('acme.localhost', '127.0.0.1'), { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe(OFFER);
    expect(mail!.html).toContain('<strong>Thanks</strong>');
    expect(mail!.attachments.map((a) => a.filename)).toEqual(['terms.txt']);
    await byId(page, 'test-message-close').click();
  });

  it('builds a campaign: settings are required, senders are filtered by the template type', async () => {
    await page.goto(`${baseUrl}/campaign/create`);
    await byId(page, 'form-field-name').fill('E2E Campaign');
    await byId(page, 'form-submit').click();
    await byId(page, 'form-error').waitFor();
    await eventually(() => byId(page, 'setting-row').first().getByText('This field is required').count(), 2);

    await searchAndPick(page, byId(page, 'setting-template-0'), 'E2E', new RegExp(TEMPLATE));
    // An html template goes by email: the seeded phone sender is not offered.
    const searched = apiResponse(page, 'GET', '/api/v1/sender');
    await byId(page, 'setting-sender-0').click();
    await byId(page, 'setting-sender-0').fill('+1500');
    await searched;
    await page.getByText('No sender fits this template').waitFor();
    await page.keyboard.press('Escape');
    await searchAndPick(page, byId(page, 'setting-sender-0'), 'news@', `${SENDER.name} <${SENDER.value}>`);

    await byId(page, 'settings-add').click();
    await searchAndPick(page, byId(page, 'setting-template-1'), 'E2E', new RegExp(TEMPLATE));
    await searchAndPick(page, byId(page, 'setting-sender-1'), 'hello@', /hello@acme\.test/);
    await byId(page, 'setting-to-1').fill(CONTACT.email);

    const created = apiResponse(page, 'POST', '/api/v1/campaign');
    await byId(page, 'form-submit').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/campaign$/);
    const campaign = row('E2E Campaign');
    await campaign.waitFor();
    expect(await byId(campaign, 'setting-chip').allInnerTexts()).toEqual([`${TEMPLATE} → ${SENDER.value}`, `${TEMPLATE} → hello@acme.test → ${CONTACT.email}`]);
    await screenshot(page, 'channels-campaign-list');
  });
});
