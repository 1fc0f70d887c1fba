import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MESSAGES } from '../../src/shared/messages';
import { launchChromium, screenshot } from './browser';
import { apiFromPage, apiResponse, byId } from './console';
import { freshAccount, hostCall, linkIn, orgUrl, passwordSignIn, signInAs, signOut, waitForMail } from './identity-helpers';

const port = inject('port');
const platformUrl = inject('platformUrl');
const mailUrl = inject('mailUrl');

describe('sign-up through payment to a working account (headless Chromium)', () => {
  let browser: Browser;
  let page: Page;
  const account = freshAccount('signup');
  const base = orgUrl(port, account.domain);
  let completeLink: URL;

  beforeAll(async () => {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('fills the three steps, sees the amount in dollars and pays on the test checkout', async () => {
    await page.goto(`${platformUrl}/signup`);
    await byId(page, 'signup-step-user').waitFor();
    await expect.poll(() => byId(page, 'signup-stepper').getAttribute('data-step')).toBe('0');

    // Next with empty fields stays on step 1 and says what is missing.
    await byId(page, 'signup-next').click();
    await expect.poll(() => byId(page, 'signup-stepper').getAttribute('data-step')).toBe('0');
    await expect.poll(() => page.getByText(MESSAGES.required).count()).toBeGreaterThan(0);

    await byId(page, 'signup-name').fill(account.name);
    await byId(page, 'signup-email').fill(account.email);
    // The live checklist follows the typing.
    await byId(page, 'signup-password').fill('short');
    await expect.poll(() => byId(page, 'signup-password-rule-upper').getAttribute('data-ok')).toBe('false');
    await byId(page, 'signup-password').fill(account.password);
    for (const rule of ['min_length', 'upper', 'lower', 'number', 'special']) {
      await expect.poll(() => byId(page, `signup-password-rule-${rule}`).getAttribute('data-ok')).toBe('true');
    }
    await byId(page, 'signup-repeat').fill(account.password);
    await byId(page, 'signup-next').click();

    await byId(page, 'signup-step-organization').waitFor();
    await expect.poll(() => byId(page, 'signup-stepper').getAttribute('data-step')).toBe('1');
    expect(await byId(page, 'signup-domain-suffix').innerText()).toBe(`.localhost:${port}`);
    await byId(page, 'signup-org-name').fill(account.orgName);
    // A domain with capitals and a dot is refused before leaving the step.
    await byId(page, 'signup-domain').fill('Bad.Domain');
    await byId(page, 'signup-next').click();
    await expect.poll(() => byId(page, 'signup-stepper').getAttribute('data-step')).toBe('1');
    await byId(page, 'signup-domain').fill(account.domain);
    await byId(page, 'signup-next').click();

    await byId(page, 'signup-step-payment').waitFor();
    await expect.poll(() => byId(page, 'signup-stepper').getAttribute('data-step')).toBe('2');
    expect(await byId(page, 'signup-amount').innerText()).toContain('$29.00');
    expect(await byId(page, 'signup-pay').innerText()).toContain('$29.00');
    await page.waitForTimeout(400); // let the stepper's icon transition finish for the picture
    await screenshot(page, 'identity-signup-payment');

    const created = apiResponse(page, 'POST', '/api/v1/signup');
    await byId(page, 'signup-pay').click();
    expect((await created).status()).toBe(201);
    await page.waitForURL(/\/signup\/checkout\/[0-9a-f-]+$/);
    await byId(page, 'test-checkout-badge').waitFor();
    expect(await byId(page, 'test-checkout-email').innerText()).toContain(account.email);
    expect(await byId(page, 'test-checkout-amount').innerText()).toContain('$29.00');

    const paid = apiResponse(page, 'POST', /\/signup\/[^/]+\/test-payment$/);
    await byId(page, 'test-checkout-pay').click();
    expect((await paid).status()).toBe(200);
    await page.waitForURL(/\/signup\/done\?id=/);
    await byId(page, 'signup-done-paid').waitFor();
    expect(await byId(page, 'signup-done-paid').innerText()).toContain('Payment received');
    expect(await byId(page, 'signup-done-paid').innerText()).toContain(account.email);
  });

  it('the account exists but password sign-in waits for the completion link', async () => {
    const res = await hostCall<{ error?: { code?: string } }>(port, `${account.domain}.localhost:${port}`, 'POST', '/api/v1/internal-auth/token-create', {
      json: { username: account.email, password: account.password },
    });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toContain('registration_incomplete');
  });

  it('opens the emailed completion link and lands signed in on the new organisation', async () => {
    const mail = await waitForMail(mailUrl, account.email, /complete your registration/i);
    completeLink = linkIn(mail, '/sign-complete');
    expect(completeLink.origin).toBe(base);
    expect(completeLink.searchParams.get('code')).toBeTruthy();

    const completed = apiResponse(page, 'POST', '/internal-user/sign-complete');
    await page.goto(completeLink.href);
    expect((await completed).status()).toBe(200);
    await byId(page, 'dashboard').waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    const me = await apiFromPage<{ data: { username: string; email: string; organization: { domain: string; name: string } } }>(
      page,
      'GET',
      '/internal-user/me',
    );
    expect(me.status).toBe(200);
    expect(me.body.data.email).toBe(account.email);
    expect(me.body.data.organization).toMatchObject({ domain: account.domain, name: account.orgName });
  });

  it('the same link a second time is refused', async () => {
    await signOut(page);
    const again = apiResponse(page, 'POST', '/internal-user/sign-complete');
    await page.goto(completeLink.href);
    expect((await again).status()).toBeGreaterThanOrEqual(400);
    await byId(page, 'sign-complete-error').waitFor();
    expect(await byId(page, 'sign-complete-error').innerText()).toBe(MESSAGES.signCompleteInvalid);
    // A forged code is refused the same way.
    await page.goto(`${base}/sign-complete?code=forged-${completeLink.searchParams.get('code')}`);
    await byId(page, 'sign-complete-error').waitFor();
    expect(await byId(page, 'sign-complete-error').innerText()).toBe(MESSAGES.signCompleteInvalid);
  });

  it('signs in with the chosen password after signing out; a wrong password is refused', async () => {
    expect(await passwordSignIn(page, base, account.email, 'Wrong-Pass-1!')).toBe(401);
    await byId(page, 'signin-error').waitFor();
    await signInAs(page, base, account.email, account.password);
    // The domain is now taken: a second sign-up with it is a 422 on the domain.
    const dup = await hostCall<{ error: { fields?: Record<string, string[]> } }>(port, `localhost:${port}`, 'POST', '/api/v1/signup', {
      json: { user: { name: 'X', email: 'other@example.test', password: account.password }, organization: { name: 'X', domain: account.domain } },
    });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields?.['organization.domain']).toEqual([MESSAGES.duplicate]);
  });
});
