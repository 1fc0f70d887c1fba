import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { expirePendingSignups } from '../../../src/modules/form/public/expiry';
import { insertContact } from '../channel-helpers';
import { confirmTokenIn, consentsOf, contactOf, membersOf, messagesTo, newEmail, send, setupForm, signUp } from './public-helpers';

// The confirmation link (GET looks, POST confirms, once), an organisation's contact who had left rejoining by their
// own click, and the expiry of sign-ups never confirmed (src/modules/form/public/confirm.ts, expiry.ts).

async function pendingSignup(subscriptions = 1) {
  const s = await setupForm({ subscriptions });
  const email = newEmail();
  expect((await signUp(s, { email, subscription: s.subscriptions.map((x) => String(x.id)) })).status).toBe(200);
  const contact = (await contactOf(s.o.orgId, email))!;
  const [mail] = await messagesTo(s.o.orgId, email);
  return { s, email, contact, token: confirmTokenIn(mail) };
}

describe('/f/confirm', () => {
  it('GET shows one button and changes nothing; POST confirms once; a second POST says already confirmed', async () => {
    const { s, contact, token } = await pendingSignup(2);
    const look = await send(s.host, `/f/confirm?t=${token}`);
    expect(look.status).toBe(200);
    expect(look.text).toContain('data-testid="confirm-button"');
    expect(look.text).toContain('method="post" action="/f/confirm"');
    expect(look.headers.get('referrer-policy')).toBe('same-origin');
    expect((await consentsOf(contact.id))[0].confirmed_at).toBeNull();
    expect((await membersOf(contact.id)).map((m) => m.status)).toEqual(['pending', 'pending']);

    const done = await send(s.host, '/f/confirm', { fields: { t: token }, ip: '192.0.2.44', headers: { 'user-agent': 'ConfirmingBrowser/1.0' } });
    expect(done.status).toBe(200);
    expect(done.text).toContain('data-testid="confirm-done"');
    const [consent] = await consentsOf(contact.id);
    expect(consent.confirmed_at).not.toBeNull();
    expect(consent.confirm_user_agent).toBe('ConfirmingBrowser/1.0');
    expect(consent.confirm_ip_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(consent.confirm_ip_hash).not.toBe(consent.signup_ip_hash);
    expect(consent.token_hash).toBeNull();
    expect(consent.expires_at).toBeNull();
    const members = await membersOf(contact.id);
    expect(members.map((m) => [m.status, m.source, m.consent_id, m.expires_at])).toEqual([
      ['confirmed', 'form', consent.id, null],
      ['confirmed', 'form', consent.id, null],
    ]);
    const log = await env.DB.prepare("SELECT field FROM activity_log WHERE org_id = ? AND entity_id = ? AND field = 'form_confirmation'")
      .bind(s.o.orgId, contact.id)
      .all();
    expect(log.results).toHaveLength(1);

    const again = await send(s.host, '/f/confirm', { fields: { t: token } });
    expect(again.status).toBe(200);
    expect(again.text).toContain('data-testid="confirm-already"');
    expect((await send(s.host, `/f/confirm?t=${token}`)).text).toContain('data-testid="confirm-already"');
  });

  it('refuses a forged or unknown token (404), an expired one (410), and a token at another organisation host (404)', async () => {
    const { s, contact, token } = await pendingSignup();
    expect((await send(s.host, '/f/confirm', { fields: { t: 'nope' } })).status).toBe(404);
    expect((await send(s.host, '/f/confirm', { fields: { t: `${token.slice(0, -2)}xx` } })).status).toBe(404);
    const other = await setupForm();
    expect((await send(other.host, '/f/confirm', { fields: { t: token } })).status).toBe(404);
    await env.DB.prepare("UPDATE consents SET expires_at = '2000-01-01T00:00:00.000Z' WHERE contact_id = ?").bind(contact.id).run();
    const expired = await send(s.host, '/f/confirm', { fields: { t: token } });
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('data-testid="confirm-expired"');
    expect((await membersOf(contact.id))[0].status).toBe('pending');
  });

  it("rejoins a known contact's subscription it had left only when the person confirms", async () => {
    const s = await setupForm();
    const email = newEmail('left');
    const id = await insertContact(s.o.orgId, 'Leaver', [{ type: 'email', value: email }]);
    await env.DB.prepare("INSERT INTO unsubscribes (org_id, contact_id, subscription_id, source) VALUES (?, ?, ?, 'page')")
      .bind(s.o.orgId, id, s.subscriptions[0].id)
      .run();
    await signUp(s, { email });
    expect((await membersOf(id))[0].status).toBe('unsubscribed');
    const token = confirmTokenIn((await messagesTo(s.o.orgId, email))[0]);
    expect((await send(s.host, '/f/confirm', { fields: { t: token } })).status).toBe(200);
    expect((await membersOf(id))[0]).toMatchObject({ status: 'confirmed', source: 'form' });
    const left = await env.DB.prepare('SELECT count(*) AS n FROM unsubscribes WHERE contact_id = ?').bind(id).first<{ n: number }>();
    expect(left!.n).toBe(0);
  });
});

describe('expiry of unconfirmed sign-ups', () => {
  it('removes pending rows, unconfirmed consents and the explicit contacts nothing else holds; keeps the rest', async () => {
    const gone = await pendingSignup();
    const kept = await pendingSignup();
    // A contact that confirmed one sign-up and let another expire keeps its confirmed membership.
    const confirmedEmail = newEmail('both');
    const both = await setupForm({ subscriptions: 2 });
    await signUp(both, { email: confirmedEmail, subscription: String(both.subscriptions[0].id) });
    const bothContact = (await contactOf(both.o.orgId, confirmedEmail))!;
    const first = confirmTokenIn((await messagesTo(both.o.orgId, confirmedEmail))[0]);
    await send(both.host, '/f/confirm', { fields: { t: first } });
    await env.DB.prepare('DELETE FROM rate_limits WHERE key LIKE ?').bind(`form:mailPerAddress:${both.formId}:%`).run();
    await signUp(both, { email: confirmedEmail, subscription: String(both.subscriptions[1].id) });

    const past = '2000-01-01T00:00:00.000Z';
    for (const id of [gone.contact.id, bothContact.id]) {
      await env.DB.prepare('UPDATE consents SET expires_at = ? WHERE contact_id = ? AND confirmed_at IS NULL').bind(past, id).run();
      await env.DB.prepare("UPDATE subscription_members SET expires_at = ? WHERE contact_id = ? AND status = 'pending'").bind(past, id).run();
    }
    expect(await expirePendingSignups(createDb(env.DB))).toBeGreaterThanOrEqual(2);

    expect(await contactOf(gone.s.o.orgId, gone.email)).toBeNull();
    expect(await contactOf(kept.s.o.orgId, kept.email)).not.toBeNull();
    expect((await membersOf(kept.contact.id))[0].status).toBe('pending');
    expect(await contactOf(both.o.orgId, confirmedEmail)).not.toBeNull();
    expect((await membersOf(bothContact.id)).map((m) => m.status)).toEqual(['confirmed']);
    expect((await consentsOf(bothContact.id)).map((c) => c.confirmed_at !== null)).toEqual([true]);
  });
});
