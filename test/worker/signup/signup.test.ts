import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { signupViewSchema } from '../../../src/shared/contracts/signup';
import { MESSAGES } from '../../../src/shared/messages';
import { appFetch, createOrg, mailsTo } from '../helpers';
import { count, platform, setSignup, signupBody, startSignup } from './helpers';

const post = (json: unknown) => platform('/api/v1/signup', { method: 'POST', json });

describe('POST /signup', () => {
  beforeEach(() => setSignup({ 'signup.enabled': true, 'signup.active': true }));

  it('creates a pending sign-up with the built-in test checkout and stores a hashed password', async () => {
    const view = await startSignup('alpha-one');
    expect(view).toMatchObject({ status: 'pending', amount: 2900, currency: 'usd', email: 'ada@alpha-one.test', domain: 'alpha-one' });
    expect(view.checkout_url).toBe(`http://localhost:8787/signup/checkout/${view.id}`);
    // The answer is exactly the documented shape (the zod object its type and OpenAPI component come from).
    expect(signupViewSchema.safeParse(view).error?.issues).toBeUndefined();
    const row = await env.DB.prepare('SELECT * FROM signups WHERE id = ?').bind(view.id).first<Record<string, any>>();
    expect(row).toMatchObject({ status: 'pending', payment_provider: 'test', org_name: 'alpha-one Ltd', amount_cents: 2900, org_id: null });
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    expect(row!.password_hash).not.toContain('Secret-123');
    expect(Date.parse(row!.expires_at) - Date.now()).toBeGreaterThan(23 * 3600_000);
    // Nothing of the account exists before payment.
    expect(await count('SELECT count(*) AS n FROM organizations WHERE domain = ?', 'alpha-one')).toBe(0);

    const got = await platform(`/api/v1/signup/${view.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(view);
  });

  it('answers 422 with field messages for bad input', async () => {
    const res = await post({
      user: { name: ' ', email: 'not-an-email', password: 'short' },
      organization: { name: '', domain: 'Bad_Domain!' },
    });
    expect(res.status).toBe(422);
    const fields = res.body.error.fields;
    expect(fields['user.name']).toEqual([MESSAGES.required]);
    expect(fields['user.email']).toEqual([MESSAGES.invalidEmail]);
    expect(fields['user.password']).toContain(MESSAGES.passwordMinLength);
    expect(fields['organization.name']).toEqual([MESSAGES.required]);
    expect(fields['organization.domain']).toEqual([MESSAGES.orgDomainInvalid]);

    const missing = await post({});
    expect(missing.status).toBe(422);
    expect(missing.body.error.fields.user).toEqual([MESSAGES.required]);
    expect((await post({ ...signupBody('extra-key'), admin: true })).status).toBe(422);
  });

  it('refuses reserved domains and domains already taken or held by a pending sign-up', async () => {
    const reserved = await post(signupBody('admin'));
    expect(reserved.status).toBe(422);
    expect(reserved.body.error.fields['organization.domain']).toEqual([MESSAGES.orgDomainReserved]);
    expect((await post(signupBody('demo'))).body.error.fields['organization.domain']).toEqual([MESSAGES.orgDomainReserved]);

    await createOrg('taken-org');
    const taken = await post(signupBody('taken-org'));
    expect(taken.status).toBe(422);
    expect(taken.body.error.fields).toEqual({ 'organization.domain': [MESSAGES.duplicate] });
    // Case and spaces do not get around it.
    expect((await post(signupBody('taken-org', { organization: { domain: ' Taken-Org ' } }))).status).toBe(422);

    await startSignup('held-org');
    const held = await post(signupBody('held-org', { user: { email: 'someone-else@example.com' } }));
    expect(held.status).toBe(422);
    expect(held.body.error.fields).toEqual({ 'organization.domain': [MESSAGES.duplicate] });
    // The same person starting again is not blocked by their own unpaid attempt.
    await startSignup('held-org');
    // An expired pending sign-up no longer holds the domain.
    await env.DB.prepare("UPDATE signups SET expires_at = '2000-01-01T00:00:00.000Z' WHERE domain = 'held-org'").run();
    await startSignup('held-org', { user: { email: 'someone-else@example.com' } });
  });

  it('refuses malformed JSON (400) and bodies not sent as JSON (415)', async () => {
    const bad = await platform('/api/v1/signup', { method: 'POST', body: '{"user":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    const form = await platform('/api/v1/signup', { method: 'POST', body: 'user=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
  });

  it('is closed (404 registration_closed) when signup.enabled is false', async () => {
    await setSignup({ 'signup.enabled': false });
    const res = await post(signupBody('closed-org'));
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'registration_closed', message: MESSAGES.registrationClosed });
  });

  it('is paused (409 registration_paused) when signup.active is false and there is no valid invite', async () => {
    await setSignup({ 'signup.active': false });
    const res = await post(signupBody('paused-org'));
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'registration_paused', message: MESSAGES.registrationPaused });
    const forged = await post(signupBody('paused-org', { invite: 'eyJlbWFpbCI6ImFkYUBwYXVzZWQtb3JnLnRlc3QifQ.AAAA' }));
    expect(forged.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM signups WHERE domain = 'paused-org'")).toBe(0);
  });

  it('answers unknown and malformed ids with 404', async () => {
    expect((await platform('/api/v1/signup/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await platform('/api/v1/signup/not-an-id')).status).toBe(404);
    expect((await platform("/api/v1/signup/1'%20OR%201=1", { method: 'POST' })).status).toBe(404);
    expect((await platform('/api/v1/signup/00000000-0000-4000-8000-000000000000/test-payment', { method: 'POST' })).status).toBe(404);
    expect((await platform('/api/v1/signup/xyz/test-payment', { method: 'POST' })).status).toBe(404);
  });
});

describe('test payment', () => {
  beforeEach(() => setSignup({ 'signup.enabled': true, 'signup.active': true }));

  it('creates the organisation and the pending user once, and mails the completion link', async () => {
    const view = await startSignup('pay-once');
    const paid = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ id: view.id, status: 'paid', checkout_url: '' });
    expect(signupViewSchema.safeParse(paid.body.data).error?.issues).toBeUndefined();

    const org = await env.DB.prepare("SELECT * FROM organizations WHERE domain = 'pay-once'").first<{ id: number; name: string }>();
    expect(org).toMatchObject({ name: 'pay-once Ltd' });
    const user = await env.DB.prepare('SELECT * FROM users WHERE org_id = ?').bind(org!.id).first<Record<string, any>>();
    expect(user).toMatchObject({ name: 'Ada Owner', username: 'ada@pay-once.test', email: 'ada@pay-once.test', registration_pending: 1 });
    const signup = await env.DB.prepare('SELECT * FROM signups WHERE id = ?').bind(view.id).first<Record<string, any>>();
    expect(signup).toMatchObject({ status: 'paid', org_id: org!.id, user_id: user!.id });
    expect(signup!.paid_at).toBeTruthy();
    expect(user!.password_hash).toBe(signup!.password_hash);

    const code = await env.DB.prepare('SELECT * FROM one_time_codes WHERE user_id = ?').bind(user!.id).first<Record<string, any>>();
    expect(code).toMatchObject({ org_id: org!.id, purpose: 'sign_complete', used_at: null });
    const days = (Date.parse(code!.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);

    const mails = await mailsTo('ada@pay-once.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ org_id: org!.id, subject: 'Complete your registration' });
    expect(mails[0].text).toMatch(/http:\/\/pay-once\.localhost:8787\/sign-complete\?code=[A-Za-z0-9_-]{40,}/);
    expect(mails[0].html).toContain('http://pay-once.localhost:8787/sign-complete?code=');
    // Only a hash of the code is stored.
    const emailed = /code=([A-Za-z0-9_-]+)/.exec(mails[0].text!)![1];
    expect(code!.code_hash).not.toBe(emailed);
    expect(code!.code_hash).toMatch(/^[0-9a-f]{64}$/);

    // Paying again changes nothing: no second organisation, user or mail.
    const again = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('paid');
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'pay-once'")).toBe(1);
    expect(await count('SELECT count(*) AS n FROM users WHERE org_id = ?', org!.id)).toBe(1);
    expect(await mailsTo('ada@pay-once.test')).toHaveLength(1);

    // The domain now belongs to the organisation.
    expect((await post(signupBody('pay-once', { user: { email: 'late@example.com' } }))).status).toBe(422);
  });

  it('creates one account when two payment confirmations arrive at the same moment', async () => {
    const view = await startSignup('pay-race');
    const answers = await Promise.all([1, 2, 3].map(() => platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'pay-race'")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM users WHERE username = 'ada@pay-race.test'")).toBe(1);
    expect(
      await count(
        "SELECT count(*) AS n FROM one_time_codes WHERE purpose = 'sign_complete' AND org_id = (SELECT id FROM organizations WHERE domain = 'pay-race')",
      ),
    ).toBe(1);
    expect(await mailsTo('ada@pay-race.test')).toHaveLength(1);
  });

  it('marks the sign-up failed when the domain was taken between sign-up and payment', async () => {
    const view = await startSignup('race-org');
    await createOrg('race-org');
    const res = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('failed');
    expect(await count("SELECT count(*) AS n FROM users WHERE username = 'ada@race-org.test'")).toBe(0);
    expect(await mailsTo('ada@race-org.test')).toHaveLength(0);
  });

  it('refuses an expired sign-up', async () => {
    const view = await startSignup('expired-org');
    await env.DB.prepare("UPDATE signups SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(view.id).run();
    const res = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(res.status).toBe(409);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'expired-org'")).toBe(0);
  });

  it('is not offered when Stripe is configured', async () => {
    const view = await startSignup('stripe-on');
    const req = new Request(`http://localhost:8787/api/v1/signup/${view.id}/test-payment`, { method: 'POST', headers: { host: 'localhost:8787' } });
    const res = await appFetch(req, { env: { STRIPE_SECRET_KEY: 'sk_test_not_used' } });
    expect(res.status).toBe(404);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'stripe-on'")).toBe(0);
  });
});
