import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '../../src/shared/messages';
import { launchChromium } from './browser';
import { apiResponse, byId } from './console';
import { freshAccount, linkIn, mailTo, NEW_PASSWORD, orgUrl, passwordSignIn, signInAs, signOut, signUpByApi, waitForMail } from './identity-helpers';

const port = inject('port');
const mailUrl = inject('mailUrl');

describe('password reset from the caught mail (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  const account = freshAccount('reset');
  const base = orgUrl(port, account.domain);
  let resetLink: URL;

  beforeAll(async () => {
    await signUpByApi(port, mailUrl, account);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('an unknown address gets the same generic answer and no mail', async () => {
    const stranger = `nobody-${account.domain}@example.test`;
    await page.goto(`${base}/`);
    await byId(page, 'signin-forgot-password').click();
    await byId(page, 'forgot-password').waitFor();
    await byId(page, 'forgot-password-email').fill(stranger);
    await byId(page, 'forgot-password-submit').click();
    expect(await byId(page, 'forgot-password-sent').innerText()).toBe(MESSAGES.resetRequested);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailTo(mailUrl, stranger)).toEqual([]);
  });

  it('asks for a reset link and gets the generic answer and the mail', async () => {
    const before = (await mailTo(mailUrl, account.email)).map((m) => m.id);
    await page.goto(`${base}/forgot-password`);
    await byId(page, 'forgot-password-email').fill(account.email);
    const sent = apiResponse(page, 'POST', '/internal-user/password-remind');
    await byId(page, 'forgot-password-submit').click();
    expect((await sent).status()).toBe(200);
    expect(await byId(page, 'forgot-password-sent').innerText()).toBe(MESSAGES.resetRequested);

    const mail = await waitForMail(mailUrl, account.email, /reset/i, before);
    resetLink = linkIn(mail, '/password-reset');
    expect(resetLink.origin).toBe(base);
    expect(resetLink.searchParams.get('code')).toBeTruthy();
  });

  it('sets a new password on the linked page, with the live checklist and the repeat check', async () => {
    await page.goto(resetLink.href);
    await byId(page, 'password-reset').waitFor();
    const rule = (name: string) => byId(page, `password-reset-password-rule-${name}`).getAttribute('data-ok');

    await byId(page, 'password-reset-password').fill('abc');
    await expect.poll(() => rule('lower')).toBe('true');
    await expect.poll(() => rule('upper')).toBe('false');
    await expect.poll(() => rule('min_length')).toBe('false');
    await expect.poll(() => rule('number')).toBe('false');
    await expect.poll(() => rule('special')).toBe('false');

    await byId(page, 'password-reset-password').fill(NEW_PASSWORD);
    for (const name of ['min_length', 'upper', 'lower', 'number', 'special']) await expect.poll(() => rule(name)).toBe('true');

    // A different repeat is refused in the page, before anything is sent.
    await byId(page, 'password-reset-repeat').fill(`${NEW_PASSWORD}x`);
    await byId(page, 'password-reset-submit').click();
    await page.getByText(MESSAGES.passwordsMismatch).waitFor();
    expect(await byId(page, 'password-reset-done').count()).toBe(0);

    await byId(page, 'password-reset-repeat').fill(NEW_PASSWORD);
    const reset = apiResponse(page, 'POST', '/internal-user/password-reset');
    await byId(page, 'password-reset-submit').click();
    expect((await reset).status()).toBe(200);
    await byId(page, 'password-reset-done').waitFor();
  });

  it('the old password is refused and the new one works', async () => {
    await byId(page, 'password-reset-signin').click();
    expect(await passwordSignIn(page, base, account.email, account.password)).toBe(401);
    await byId(page, 'signin-error').waitFor();
    await signInAs(page, base, account.email, NEW_PASSWORD);
    await signOut(page);
  });

  it('the same link again says it is invalid, and a forged code too', async () => {
    for (const href of [resetLink.href, `${base}/password-reset?code=forged-${resetLink.searchParams.get('code')}`]) {
      await page.goto(href);
      await byId(page, 'password-reset-password').fill('Another-Pass-7!');
      await byId(page, 'password-reset-repeat').fill('Another-Pass-7!');
      const reset = apiResponse(page, 'POST', '/internal-user/password-reset');
      await byId(page, 'password-reset-submit').click();
      expect((await reset).status()).toBeGreaterThanOrEqual(400);
      await byId(page, 'password-reset-invalid').waitFor();
      expect(await byId(page, 'password-reset-invalid').innerText()).toBe(MESSAGES.resetLinkInvalid);
      await byId(page, 'password-reset-request-new').waitFor();
    }
    // Nothing changed: the password set from the mail still works.
    await signInAs(page, base, account.email, NEW_PASSWORD);
  });
});
