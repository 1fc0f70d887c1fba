import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { consentsOf, contactOf, membersOf, messagesTo, newEmail, setupForm, signUp } from './public-helpers';

// Posts with a Turnstile token: checked with siteverify, here the test receiver on loopback scripted to answer as
// Cloudflare's does (test/support/webhook-receiver.mjs; TURNSTILE_VERIFY_URL points at it for the request).

const RECEIVER = env.WEBHOOK_RECEIVER_URL;
let n = 0;

async function verifier(answers: { status: number; json?: unknown }[]) {
  const path = `/hooks/siteverify-${++n}`;
  await fetch(`${RECEIVER}/_control/script`, { method: 'POST', body: JSON.stringify({ path, answers }) });
  return {
    env: {
      TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
      TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
      TURNSTILE_VERIFY_URL: `${RECEIVER}${path}`,
    },
    requests: async () => (await (await fetch(`${RECEIVER}/_control/requests?path=${path}`)).json()) as { body: string }[],
  };
}

const PASS = { status: 200, json: { success: true } };
const FAIL = { status: 200, json: { success: false, 'error-codes': ['invalid-input-response'] } };
const REUSED = { status: 200, json: { success: false, 'error-codes': ['timeout-or-duplicate'] } };

describe('POST /f/:key with a Turnstile token', () => {
  it('verifies the token (secret, response, remoteip) and confirms at once on a single opt-in form, mailing nothing', async () => {
    const s = await setupForm({ doubleOptIn: false });
    const v = await verifier([PASS]);
    const email = newEmail();
    const res = await signUp(s, { email, 'cf-turnstile-response': 'token-1' }, { env: v.env, ip: '203.0.113.50' });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('data-testid="form-success"');
    const [request] = await v.requests();
    expect(JSON.parse(request.body)).toEqual({
      secret: v.env.TURNSTILE_SECRET_KEY,
      response: 'token-1',
      remoteip: '203.0.113.50',
      idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const contact = (await contactOf(s.o.orgId, email))!;
    const [consent] = await consentsOf(contact.id);
    expect(consent.confirmed_at).not.toBeNull();
    expect(consent.token_hash).toBeNull();
    expect((await membersOf(contact.id))[0]).toMatchObject({ status: 'confirmed', source: 'form', consent_id: consent.id });
    expect(await messagesTo(s.o.orgId, email)).toHaveLength(0);
  });

  it('refuses an invalid token and a reused one (403), writing nothing', async () => {
    const s = await setupForm({ doubleOptIn: false });
    const v = await verifier([PASS, REUSED, FAIL]);
    expect((await signUp(s, { email: newEmail(), 'cf-turnstile-response': 'once' }, { env: v.env })).status).toBe(200);
    const reusedEmail = newEmail();
    const reused = await signUp(s, { email: reusedEmail, 'cf-turnstile-response': 'once' }, { env: v.env });
    expect(reused.status).toBe(403);
    expect(reused.text).toContain('data-testid="form-alert"');
    const badEmail = newEmail();
    expect((await signUp(s, { email: badEmail, 'cf-turnstile-response': 'forged' }, { env: v.env })).status).toBe(403);
    expect(await contactOf(s.o.orgId, reusedEmail)).toBeNull();
    expect(await contactOf(s.o.orgId, badEmail)).toBeNull();
  });

  it('takes a post whose token siteverify cannot check, and one without a token, as tokenless: always double opt-in', async () => {
    const s = await setupForm({ doubleOptIn: false });
    const v = await verifier([{ status: 500 }, { status: 503 }]);
    // siteverify down (asked twice): the sign-up is not lost; it waits for its confirmation like a post without a token.
    const unchecked = newEmail();
    expect((await signUp(s, { email: unchecked, 'cf-turnstile-response': 't' }, { env: v.env })).status).toBe(200);
    expect((await membersOf((await contactOf(s.o.orgId, unchecked))!.id))[0].status).toBe('pending');
    expect(await messagesTo(s.o.orgId, unchecked)).toHaveLength(1);
    const email = newEmail();
    const res = await signUp(s, { email }, { env: v.env });
    expect(res.status).toBe(200);
    const contact = (await contactOf(s.o.orgId, email))!;
    expect((await membersOf(contact.id))[0].status).toBe('pending');
    expect(await messagesTo(s.o.orgId, email)).toHaveLength(1);
    expect(await v.requests()).toHaveLength(2);
  });

  it('asks again with the same idempotency key when the first answer is lost, and takes the second', async () => {
    const s = await setupForm({ doubleOptIn: false });
    const v = await verifier([{ status: 502 }, PASS]);
    const email = newEmail();
    const res = await signUp(s, { email, 'cf-turnstile-response': 'lost-once' }, { env: v.env });
    expect(res.status, res.text).toBe(200);
    const [first, second] = (await v.requests()).map((r) => JSON.parse(r.body) as { response: string; idempotency_key: string });
    expect(second).toEqual(first);
    expect(first.response).toBe('lost-once');
    // Verified: the single opt-in form confirms at once.
    expect((await membersOf((await contactOf(s.o.orgId, email))!.id))[0].status).toBe('confirmed');
  });
});
