import { env } from 'cloudflare:workers';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailsTo } from '../helpers';
import { count, platform, setSignup, startSignup } from './helpers';

const SECRET = 'whsec_test_secret_for_relay_tests';
const crypto = Stripe.createSubtleCryptoProvider();

function completedEvent(signupId: string, paymentStatus = 'paid', type = 'checkout.session.completed') {
  return JSON.stringify({
    id: `evt_${signupId.slice(0, 8)}`,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: `cs_test_${signupId.slice(0, 8)}`, object: 'checkout.session', client_reference_id: signupId, payment_status: paymentStatus } },
  });
}

async function signature(payload: string, secret = SECRET, timestamp?: number) {
  return Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret, cryptoProvider: crypto, timestamp });
}

const deliver = (payload: string, sig: string | null) =>
  platform('/api/v1/signup/stripe-webhook', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', ...(sig === null ? {} : { 'stripe-signature': sig }) },
  });

describe('Stripe webhook', () => {
  beforeAll(() => setSignup({ 'signup.enabled': true, 'signup.active': true }));

  it('creates the account for a correctly signed checkout.session.completed, once even when replayed', async () => {
    const view = await startSignup('hooked');
    const payload = completedEvent(view.id);
    const sig = await signature(payload);
    const res = await deliver(payload, sig);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ handled: true, outcome: 'created' });
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'hooked'")).toBe(1);
    expect((await platform(`/api/v1/signup/${view.id}`)).body.data.status).toBe('paid');

    const replay = await deliver(payload, sig);
    expect(replay.status).toBe(200);
    expect(replay.body.data.outcome).toBe('already');
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'hooked'")).toBe(1);
    expect(await count("SELECT count(*) AS n FROM users WHERE username = 'ada@hooked.test'")).toBe(1);
    expect(await mailsTo('ada@hooked.test')).toHaveLength(1);
  });

  it('refuses forged, wrongly keyed, tampered, old and unsigned deliveries with 400', async () => {
    const view = await startSignup('forged-hook');
    const payload = completedEvent(view.id);
    for (const sig of [
      await signature(payload, 'whsec_someone_else'),
      await signature(completedEvent('00000000-0000-4000-8000-000000000000')),
      await signature(payload, SECRET, Math.floor(Date.now() / 1000) - 3600),
      't=1,v1=deadbeef',
      '',
    ]) {
      const res = await deliver(payload, sig);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('webhook_invalid');
    }
    const tampered = payload.replace('"paid"', '"paid" ');
    expect((await deliver(tampered, await signature(payload))).status).toBe(400);
    expect((await deliver(payload, null)).status).toBe(400);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'forged-hook'")).toBe(0);
    expect((await platform(`/api/v1/signup/${view.id}`)).body.data.status).toBe('pending');
  });

  it('ignores other events and unpaid sessions', async () => {
    const view = await startSignup('ignored-hook');
    for (const payload of [completedEvent(view.id, 'unpaid'), completedEvent(view.id, 'paid', 'checkout.session.expired')]) {
      const res = await deliver(payload, await signature(payload));
      expect(res.status).toBe(200);
      expect(res.body.data.handled).toBe(false);
    }
    // An unknown sign-up id is acknowledged (Stripe must not retry it forever) and creates nothing.
    const unknown = completedEvent('11111111-1111-4111-8111-111111111111');
    const res = await deliver(unknown, await signature(unknown));
    expect(res.status).toBe(200);
    expect(res.body.data.outcome).toBe('not_found');
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'ignored-hook'")).toBe(0);
    expect((await env.DB.prepare('SELECT status FROM signups WHERE id = ?').bind(view.id).first<{ status: string }>())!.status).toBe('pending');
  });
});
