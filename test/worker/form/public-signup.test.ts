import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createTemplate, insertContact } from '../channel-helpers';
import { consentsOf, contactOf, insertForm, membersOf, messagesTo, newEmail, send, setupForm, signUp } from './public-helpers';

// The hosted form (src/modules/form/public): the page, a sign-up without a token (double opt-in, tokenless limits),
// the confirmation mail (nothing typed in it), the same answer for new and known addresses, and every refusal that
// needs no Turnstile (honeypot, fields, origin, size, a disabled form, another organisation's form).

const SPAM_NAME = 'Cheap pills at http://spam.example';

describe('GET /f/:key', () => {
  it('renders the form as plain html in the visitor language, escaped, with a strict policy and no script', async () => {
    const s = await setupForm({ name: '<b>News</b> & "more"', subscriptions: 2 });
    // Without Turnstile keys (the worker tests' platform has the stand-in's: unset here), no widget and no script.
    const noTurnstile = { TURNSTILE_SITE_KEY: '', TURNSTILE_SECRET_KEY: '' };
    const res = await send(s.host, `/f/${s.key}`, { headers: { 'accept-language': 'de-DE,de;q=0.9' }, env: noTurnstile });
    expect(res.status).toBe(200);
    expect(res.text).toContain('&lt;b&gt;News&lt;/b&gt; &amp; &quot;more&quot;');
    expect(res.text).not.toContain('<b>News</b>');
    expect(res.text).toContain('lang="de"');
    expect(res.text).toContain('Abonnieren');
    expect(res.text).toContain('name="website"');
    for (const sub of s.subscriptions) expect(res.text).toContain(`name="subscription" value="${sub.id}"`);
    expect(res.text).not.toContain('<script');
    expect(res.text).not.toContain('class="cf-turnstile"');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(new TextEncoder().encode(res.text).length).toBeLessThan(15 * 1024);
    // ?lang= wins over Accept-Language.
    expect((await send(s.host, `/f/${s.key}?lang=fr`, { headers: { 'accept-language': 'de' }, env: noTurnstile })).text).toContain('S’inscrire');
  });

  it('shows the Turnstile widget and allows only its script origin when the keys are set', async () => {
    const s = await setupForm();
    const res = await send(s.host, `/f/${s.key}`, {
      env: { TURNSTILE_SITE_KEY: '1x00000000000000000000AA', TURNSTILE_SECRET_KEY: 'secret', TURNSTILE_SCRIPT_URL: 'http://127.0.0.1:9/turnstile/v0/api.js' },
    });
    expect(res.text).toContain('class="cf-turnstile" data-sitekey="1x00000000000000000000AA"');
    expect(res.text).toContain('<script src="http://127.0.0.1:9/turnstile/v0/api.js" async defer></script>');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain('script-src http://127.0.0.1:9;');
    expect(new TextEncoder().encode(res.text).length).toBeLessThan(15 * 1024);
  });

  it("answers 404 for an unknown key and for another organisation's form", async () => {
    const a = await setupForm();
    const b = await setupForm();
    expect((await send(a.host, '/f/nope')).status).toBe(404);
    expect((await send(b.host, `/f/${a.key}`)).status).toBe(404);
  });
});

describe('POST /f/:key without a token', () => {
  it('adds an explicit contact as pending, records the consent, and mails a confirmation carrying nothing typed', async () => {
    const s = await setupForm();
    const email = newEmail();
    const res = await signUp(s, { email: email.toUpperCase(), name: SPAM_NAME }, { ip: '203.0.113.7' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('data-testid="form-success"');

    const contact = await contactOf(s.o.orgId, email);
    expect(contact).toMatchObject({ membership: 'explicit', name: SPAM_NAME });
    const [consent] = await consentsOf(contact!.id);
    expect(consent).toMatchObject({ form_id: s.formId, subscription_ids: JSON.stringify([s.subscriptions[0].id]), confirmed_at: null });
    expect(consent.signup_user_agent).toContain('Firefox');
    expect(consent.signup_ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(consent.signup_ip_hash).not.toContain('203.0.113.7');
    expect(consent.token_hash).toMatch(/^[0-9a-f]{64}$/);
    const days = (Date.parse(consent.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    const [member] = await membersOf(contact!.id);
    expect(member).toMatchObject({ subscription_id: s.subscriptions[0].id, status: 'pending', source: 'form', consent_id: consent.id });

    const [mail, ...more] = await messagesTo(s.o.orgId, email);
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({ status: 'queued', sender_id: s.senderId, contact_id: contact!.id });
    expect(mail.subject).toBe(`Confirm your subscription to ${s.o.org} Inc`);
    expect(mail.body).toContain(`http://${s.o.org}.localhost:8787/f/confirm?t=`);
    expect(mail.body).toContain('News 1');
    for (const part of [mail.subject, mail.body, mail.body_plain ?? '']) {
      expect(part).not.toContain('Cheap pills');
      expect(part).not.toContain('spam.example');
    }
    const log = await env.DB.prepare("SELECT field, new_value FROM activity_log WHERE org_id = ? AND entity = 'contact' AND entity_id = ?")
      .bind(s.o.orgId, contact!.id)
      .all<{ field: string; new_value: string }>();
    expect(log.results.map((r) => r.field)).toContain('form_signup');
  });

  it("renders the form's template with only the organisation, subscriptions and link: contact values stay empty", async () => {
    const s = await setupForm();
    const template = await createTemplate(s.o, {
      type: 'html',
      name: 'Confirm',
      subject: 'Join {{ organization.name }}',
      body: '<p>[{{ contact.name }}] {{ data.subscriptions }}: <a href="{{ data.confirm_url }}">yes</a></p>',
    });
    const form = await insertForm(s.o.orgId, [s.subscriptions[0].id], { templateId: template.id });
    const email = newEmail();
    expect((await signUp({ ...s, key: form.key, formId: form.id }, { email, name: SPAM_NAME })).status).toBe(200);
    const [mail] = await messagesTo(s.o.orgId, email);
    expect(mail.subject).toBe(`Join ${s.o.org} Inc`);
    expect(mail.body).toMatch(/^<p>\[\] News 1: <a href="http:\/\/[^"]+\/f\/confirm\?t=[^"]+">yes<\/a><\/p>$/);
    expect(mail.body).not.toContain('Cheap pills');
  });

  it('answers a known address exactly as a new one, and changes nothing about the known contact', async () => {
    const s = await setupForm({ subscriptions: 2 });
    const known = newEmail('known');
    const knownId = await insertContact(s.o.orgId, 'Ada Known', [{ type: 'email', value: known }]);
    const fields = (email: string) => ({ email, name: 'Mallory', subscription: s.subscriptions.map((x) => String(x.id)) });
    const forKnown = await signUp(s, fields(known));
    const forNew = await signUp(s, fields(newEmail()));
    expect(forKnown.status).toBe(200);
    expect(forKnown.text).toBe(forNew.text);
    expect(forKnown.headers.get('content-security-policy')).toBe(forNew.headers.get('content-security-policy'));
    // The known (implied) contact keeps its name and its membership: no pending row takes it out of a broadcast.
    expect(await contactOf(s.o.orgId, known)).toMatchObject({ id: knownId, name: 'Ada Known', membership: 'implied' });
    expect(await membersOf(knownId)).toEqual([]);
    expect(await consentsOf(knownId)).toHaveLength(1);
    expect(await messagesTo(s.o.orgId, known)).toHaveLength(1);
  });

  it('answers a filled honeypot with the same success, writing and sending nothing', async () => {
    const s = await setupForm();
    const bot = newEmail('bot');
    const trapped = await signUp(s, { email: bot, name: 'x', website: 'http://spam.example' });
    const person = await signUp(s, { email: newEmail(), name: 'x' });
    expect(trapped.status).toBe(200);
    expect(trapped.text).toBe(person.text);
    expect(await contactOf(s.o.orgId, bot)).toBeNull();
    expect(await messagesTo(s.o.orgId, bot)).toHaveLength(0);
  });

  it('shows the page again with messages (422) for bad fields, writing nothing', async () => {
    const s = await setupForm({
      subscriptions: 2,
      fields: [
        { kind: 'email', required: true },
        { kind: 'name', required: true },
      ],
    });
    const res = await signUp(s, { email: 'not-an-address', name: '' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('data-testid="form-error-email"');
    expect(res.text).toContain('data-testid="form-error-name"');
    expect(res.text).toContain('data-testid="form-error-subscription"');
    expect(res.text).toContain('value="not-an-address"');
    expect(await messagesTo(s.o.orgId)).toHaveLength(0);
    const count = await env.DB.prepare('SELECT count(*) AS n FROM contacts WHERE org_id = ?').bind(s.o.orgId).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it('checks Origin: the organisation and allowed origins pass, a missing one passes, others and "null" are refused', async () => {
    const s = await setupForm({ allowedOrigins: ['https://www.acme.example'] });
    const post = (origin?: string) => signUp(s, { email: newEmail() }, { headers: origin ? { origin } : {} });
    expect((await post(`http://${s.o.org}.localhost:8787`)).status).toBe(200);
    expect((await post('https://www.acme.example')).status).toBe(200);
    expect((await post()).status).toBe(200);
    const refused = await post('https://evil.example');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('data-testid="form-origin"');
    expect((await post('null')).status).toBe(403);
    expect(await messagesTo(s.o.orgId)).toHaveLength(3);
  });

  it('refuses a body over the limit (413) and a disabled form (403)', async () => {
    const s = await setupForm();
    const big = await send(s.host, `/f/${s.key}`, { body: `email=${newEmail()}&name=${'a'.repeat(9000)}` });
    expect(big.status).toBe(413);
    const off = await setupForm({ enabled: false });
    expect((await signUp(off, { email: newEmail() })).status).toBe(403);
    expect((await send(off.host, `/f/${off.key}`)).status).toBe(403);
    expect(await messagesTo(s.o.orgId)).toHaveLength(0);
  });

  it('redirects after success to the form redirect on its allowed origins (303), the form message otherwise', async () => {
    const s = await setupForm({ allowedOrigins: ['https://www.acme.example'], redirectUrl: 'https://www.acme.example/thanks' });
    const res = await signUp(s, { email: newEmail() });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://www.acme.example/thanks');
    const own = await setupForm({ successMessage: 'See you <soon>' });
    expect((await signUp(own, { email: newEmail() })).text).toContain('See you &lt;soon&gt;');
  });

  it("never writes another organisation's contacts: A's form posted at B's host is not found", async () => {
    const a = await setupForm();
    const b = await setupForm();
    const email = newEmail();
    expect((await send(b.host, `/f/${a.key}`, { fields: { email } })).status).toBe(404);
    expect(await contactOf(a.o.orgId, email)).toBeNull();
    expect(await contactOf(b.o.orgId, email)).toBeNull();
    expect((await signUp(a, { email })).status).toBe(200);
    expect(await contactOf(a.o.orgId, email)).not.toBeNull();
    expect(await contactOf(b.o.orgId, email)).toBeNull();
    expect(await messagesTo(b.o.orgId)).toHaveLength(0);
  });
});
