import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { apiFromPage, eventually, signIn } from './console';

// Hosted forms end to end (issue 39): a visitor signs up on the hosted page, with JavaScript (the local Turnstile
// stand-in's widget adds its token) and without (the tokenless path: always double opt-in); the confirmation mail
// lands in the catcher; opening its link changes nothing, the button confirms; the next broadcast to the form's
// subscription reaches both; from that mail's preferences page one of them leaves the other subscription and changes
// their name.
const baseUrl = inject('baseUrl');
const mailUrl = inject('mailUrl');
const RUN = Date.now().toString(36);
const VISITORS = {
  scripted: { name: `Jo Script ${RUN}`, email: `jo.${RUN}@forms.test` },
  plain: { name: `Pat Plain ${RUN}`, email: `pat.${RUN}@forms.test` },
};

type Mail = { to: unknown; subject?: string; html?: string; text?: string };
const mailFor = async (email: string): Promise<Mail[]> =>
  ((await (await fetch(`${mailUrl}/messages.json`)).json()) as Mail[]).filter((m) => JSON.stringify(m.to).includes(email));
const linkIn = (mail: Mail, path: RegExp) => {
  const found = new RegExp(`https?://[^"\\s<]+${path.source}[^"\\s<]*`).exec(mail.html ?? mail.text ?? '')?.[0];
  if (!found) throw new Error(`no ${path} link in ${mail.html ?? mail.text}`);
  // On the test platform's own port and host (the link names the organisation's origin).
  const url = new URL(found.replaceAll('&amp;', '&'));
  return `${baseUrl}${url.pathname}${url.search}`;
};

describe('hosted forms (headless Chromium against wrangler dev)', () => {
  let browser: Browser;
  let console_: Page;
  const contexts: BrowserContext[] = [];
  const subscriptions = { news: 0, offers: 0 };
  let formUrl = '';

  beforeAll(async () => {
    browser = await launchChromium();
    console_ = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(console_, baseUrl);
    for (const key of Object.keys(subscriptions) as (keyof typeof subscriptions)[]) {
      const created = await apiFromPage<{ data: { id: number } }>(console_, 'POST', '/subscription', { name: `Forms ${key} ${RUN}` });
      expect(created.status).toBe(201);
      subscriptions[key] = created.body.data.id;
    }
    const form = await apiFromPage<{ data: { public_key: string } }>(console_, 'POST', '/form', {
      name: `Sign-up ${RUN}`,
      subscription_ids: [subscriptions.news, subscriptions.offers],
      fields: [
        { kind: 'email', required: true },
        { kind: 'name', required: false },
      ],
      double_opt_in: true,
    });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    formUrl = `${baseUrl}/f/${form.body.data.public_key}`;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  const visitor = async (javaScriptEnabled: boolean) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled, locale: 'en-US' });
    contexts.push(context);
    return context.newPage();
  };

  const contactOf = async (email: string) => {
    const found = await apiFromPage<{ items: { id: number; name: string }[] }>(console_, 'GET', `/contact?search=${encodeURIComponent(email)}`);
    return found.body.items[0];
  };

  it('signs a visitor up with JavaScript on and one with it off; each confirmation mail carries nothing typed; the button confirms', async () => {
    for (const [key, person] of Object.entries(VISITORS)) {
      const page = await visitor(key === 'scripted');
      await page.goto(formUrl);
      await page.fill('input[name="email"]', person.email);
      await page.fill('input[name="name"]', person.name);
      if (key === 'scripted') {
        // The stand-in's widget put its token into the form.
        await eventually(async () => (await page.locator('input[name="cf-turnstile-response"]').count()) > 0, true, 10_000);
      } else {
        expect(await page.locator('input[name="cf-turnstile-response"]').count()).toBe(0);
      }
      await page.click('[data-testid="form-submit"]');
      await page.waitForSelector('[data-testid="form-success"]');

      await eventually(async () => (await mailFor(person.email)).length, 1, 30_000);
      const [mail] = await mailFor(person.email);
      expect(`${mail.subject} ${mail.html} ${mail.text}`).not.toContain(person.name);
      const confirmUrl = linkIn(mail, /\/f\/confirm\?t=/);

      // Opening the link (as a mail scanner would) changes nothing: the contact is still only pending.
      const opened = await (await visitor(false)).goto(confirmUrl);
      expect(opened?.status()).toBe(200);
      const contact = await contactOf(person.email);
      expect(contact, `${person.email} is a contact`).toBeDefined();
      const before = await apiFromPage<{ data: { memberships: { subscription_id: number; status: string }[] } }>(
        console_,
        'GET',
        `/contact/${contact.id}/memberships`,
      );
      expect(before.body.data.memberships.filter((m) => m.subscription_id === subscriptions.news).map((m) => m.status)).toEqual(['pending']);

      await page.goto(confirmUrl);
      await page.click('[data-testid="confirm-button"]');
      await page.waitForSelector('[data-testid="confirm-done"]');
      const after = await apiFromPage<{ data: { memberships: { subscription_id: number; status: string }[] } }>(
        console_,
        'GET',
        `/contact/${contact.id}/memberships`,
      );
      expect(after.body.data.memberships.filter((m) => [subscriptions.news, subscriptions.offers].includes(m.subscription_id)).map((m) => m.status)).toEqual([
        'confirmed',
        'confirmed',
      ]);
    }
  });

  it("reaches both with the next broadcast; one leaves a subscription and changes their name on the mail's preferences page", async () => {
    const ids = [];
    for (const person of Object.values(VISITORS)) ids.push((await contactOf(person.email)).id);
    const template = await apiFromPage<{ data: { id: number } }>(console_, 'POST', '/template', {
      type: 'email',
      name: `Forms ${RUN}`,
      subject: 'Welcome news',
      body: '<p>Hello {{ contact.name }}.</p><p><a href="{{ unsubscribe_url }}">Preferences</a></p>',
    });
    const senders = (await apiFromPage<{ items: { id: number; type: string }[] }>(console_, 'GET', '/sender?page_size=100')).body.items;
    const created = await apiFromPage<{ data: { id: number } }>(console_, 'POST', '/broadcast', {
      name: `Forms ${RUN}`,
      type: 'email',
      sender_id: senders.find((s) => s.type === 'email')!.id,
      template_id: template.body.data.id,
      subscription_id: subscriptions.news,
      contacts: { filter: { ids } },
    });
    expect(created.status).toBe(201);
    await eventually(
      async () => (await apiFromPage<{ data: { status: string } }>(console_, 'GET', `/broadcast/${created.body.data.id}`)).body.data.status,
      'finished',
      60_000,
    );
    for (const person of Object.values(VISITORS)) {
      await eventually(async () => (await mailFor(person.email)).filter((m) => m.subject === 'Welcome news').length, 1, 30_000);
    }

    const news = (await mailFor(VISITORS.plain.email)).find((m) => m.subject === 'Welcome news')!;
    const page = await visitor(false);
    await page.goto(linkIn(news, /\/unsubscribe\?m=/));
    await page.click(`[data-testid="unsubscribe-toggle-${subscriptions.offers}"]`);
    await page.waitForSelector('[data-testid="unsubscribe-done"], [data-testid="unsubscribe-changed"]');
    await page.fill('[data-testid="unsubscribe-name"]', `Patricia ${RUN}`);
    await page.click('[data-testid="unsubscribe-save"]');
    await page.waitForSelector('[data-testid="unsubscribe-saved"]');

    const contact = await contactOf(VISITORS.plain.email);
    expect(contact.name).toBe(`Patricia ${RUN}`);
    const memberships = await apiFromPage<{ data: { memberships: { subscription_id: number; status: string }[] } }>(
      console_,
      'GET',
      `/contact/${contact.id}/memberships`,
    );
    const statusOf = (id: number) => memberships.body.data.memberships.find((m) => m.subscription_id === id)?.status;
    expect([statusOf(subscriptions.news), statusOf(subscriptions.offers)]).toEqual(['confirmed', 'unsubscribed']);
  });
});
