import { env, exports } from 'cloudflare:workers';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { DEMO_LOGIN, DEMO_PASSWORD } from '../../src/modules/demo/demo-info';
import { LOGIN_FAILURE_LIMIT } from '../../src/modules/auth/login';
import { addUser, appFetch, call, createOrg, mailCount, PASSWORD, signIn } from './helpers';
import { count, platform, setSignup, startSignup } from './signup/helpers';
import { linkSocial } from './account/helpers';
import { MESSAGES } from '../../src/shared/messages';
import { SIGNUPS_PER_ADDRESS } from '../../src/modules/signup/routes';

// Defects a review of the identity work found (each test failed before its fix), plus coverage of malformed
// input and of a payment confirmation that fails part-way.

const WEBHOOK_SECRET = 'whsec_test_secret_for_relay_tests';

/** A signed Stripe webhook delivery for a checkout session of a sign-up. */
async function deliverStripeEvent(type: string, signupId: string, paymentStatus: string) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().slice(0, 8)}`,
    object: 'event',
    type,
    api_version: '2025-01-01',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: `cs_test_${signupId.slice(0, 8)}`, object: 'checkout.session', client_reference_id: signupId, payment_status: paymentStatus } },
  });
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: WEBHOOK_SECRET,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return platform('/api/v1/signup/stripe-webhook', {
    method: 'POST',
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
  });
}

const demoSignIn = (headers: Record<string, string> = {}, password = DEMO_PASSWORD) =>
  call('demo', '/api/v1/internal-auth/token-create', { method: 'POST', json: { username: DEMO_LOGIN, password }, headers });

describe('the shared demo', () => {
  // Runs before the lockout test below: both use the one demo login of this file's storage.
  it("shows each demo visitor only their own session, not the other visitors' addresses and browsers", async () => {
    const visitorA = await demoSignIn({ 'cf-connecting-ip': '203.0.113.7', 'user-agent': 'Visitor A browser' });
    expect(visitorA.status).toBe(200);
    const visitorB = await demoSignIn({ 'cf-connecting-ip': '198.51.100.9', 'user-agent': 'Visitor B browser' });
    expect(visitorB.status).toBe(200);
    const { access_token } = (await visitorB.json()) as { access_token: string };
    const list = await call('demo', '/api/v1/session', { token: access_token });
    expect(list.status).toBe(200);
    const text = await list.text();
    // Everyone signs in as the same demo user: the list must not show the other visitor.
    expect(text).not.toContain('203.0.113.7');
    expect(text).not.toContain('Visitor A browser');
  });

  it('does not let wrong passwords from one visitor lock the published demo login for everyone', async () => {
    const guesser = { 'cf-connecting-ip': '203.0.113.50' };
    for (let i = 0; i < LOGIN_FAILURE_LIMIT.max; i++) {
      const wrong = await demoSignIn(guesser, `Wrong-${i}-pass!`);
      await wrong.arrayBuffer();
    }
    // The guessing address itself is throttled ...
    const locked = await demoSignIn(guesser);
    expect(locked.status).toBe(429);
    // ... but another visitor (another address) with the published password still gets in.
    const res = await demoSignIn({ 'cf-connecting-ip': '198.51.100.20' });
    expect(res.status).toBe(200);
  });
});

describe('password guessing', () => {
  it('checks at most the limit of passwords of a parallel burst, so a right one hidden among them is refused', async () => {
    const org = await createOrg('review-burst');
    const passwords = Array.from({ length: 30 }, (_, i) => (i === 29 ? PASSWORD : `Wrong-${i}-pass!`));
    const statuses = await Promise.all(
      passwords.map((password) =>
        call(org.domain, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username: org.username, password } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    // Attempts are counted before they are checked: at most `max` of the burst get an answer other than 429,
    // and the right password, sent after 29 wrong ones, is refused like them (no token is issued to the burst).
    expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(LOGIN_FAILURE_LIMIT.max);
    expect(statuses[29]).toBe(429);
    expect(statuses).not.toContain(200);
  });
});

describe('sign-up and payment', () => {
  it('does not let the pre-registration form flood an address with mail', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': false });
    const victim = 'victim@review.example';
    for (let i = 0; i < 20; i++) {
      const res = await platform('/api/v1/pre-registration', {
        method: 'POST',
        json: { name: 'Visit http://spam.example now', email: victim, organization: 'x', comments: 'y' },
      });
      // A fix may answer the same 201 without mailing, or a 429: either way no 500.
      expect(res.status).toBeLessThan(500);
    }
    expect(await mailCount(victim)).toBeLessThanOrEqual(5);
  });

  it('creates the account when a delayed payment method succeeds later (checkout.session.async_payment_succeeded)', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': true });
    const view = await startSignup('review-async');
    // Checkout first reports the session completed but unpaid (ignored, rightly) ...
    const completed = await deliverStripeEvent('checkout.session.completed', view.id, 'unpaid');
    expect(completed.status).toBe(200);
    // ... then, once the money arrived, this event creates the account.
    const succeeded = await deliverStripeEvent('checkout.session.async_payment_succeeded', view.id, 'paid');
    expect(succeeded.status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'review-async'")).toBe(1);
  });

  it('a payment confirmation that fails part-way leaves nothing behind, and its retry creates the account', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': true });
    const view = await startSignup('review-retry');
    // A transient failure in the middle of the account batch (the user insert).
    await env.DB.prepare(
      "CREATE TRIGGER review_fail_user BEFORE INSERT ON users WHEN NEW.username = 'ada@review-retry.test' BEGIN SELECT RAISE(ABORT, 'transient'); END",
    ).run();
    const first = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(first.status).toBe(500);
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'review-retry'")).toBe(0);
    expect((await platform(`/api/v1/signup/${view.id}`)).body.data.status).toBe('pending');
    await env.DB.prepare('DROP TRIGGER review_fail_user').run();

    const retry = await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' });
    expect(retry.status).toBe(200);
    expect(retry.body.data.status).toBe('paid');
    expect(await count("SELECT count(*) AS n FROM organizations WHERE domain = 'review-retry'")).toBe(1);
    expect(await mailCount('ada@review-retry.test')).toBe(1);
  });
});

// Malformed input on every identity route: anything >= 500 is a defect. (All pass at the time of review.)
const BODIES: [string, string | undefined][] = [
  ['application/json', undefined],
  ['application/json', ''],
  ['application/json', '{not json'],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '"str"'],
  ['application/json', '123'],
  ['application/json', '{"a":1}'],
  [
    'application/json',
    '{"code":123,"password":[],"email":{"x":1},"note":5,"name":null,"ids":"x","action":"link","confirm":7,"access_token":1,"auth_type_id":"1"}',
  ],
  ['application/json', `{"email":"${'a'.repeat(100_000)}","code":"${'b'.repeat(100_000)}"}`],
  ['application/json', '{"ids":[1,2,3]}'],
  ['application/json', JSON.stringify({ access_token: 'x', auth_type_id: 1e300 })],
  ['application/json', JSON.stringify({ code: '\u0000\ud800' })],
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=b'],
];

type Send = (method: string, path: string, contentType: string, body: string | undefined) => Promise<Response>;

async function serverErrors(send: Send, routes: [string, string][]): Promise<string[]> {
  const failures: string[] = [];
  for (const [method, path] of routes) {
    for (const [contentType, body] of method === 'GET' ? BODIES.slice(0, 1) : BODIES) {
      const res = await send(method, path, contentType, method === 'GET' ? undefined : body);
      const text = await res.text();
      if (res.status >= 500)
        failures.push(`${method} ${path.slice(0, 80)} [${contentType}] ${String(body).slice(0, 40)} -> ${res.status} ${text.slice(0, 120)}`);
    }
  }
  return failures;
}

describe('the last login method and the last member', () => {
  it('keeps one login method when the password and the only social account are removed at the same moment', async () => {
    for (let i = 0; i < 3; i++) {
      const org = await createOrg(`race-methods-${i}`);
      await linkSocial(org.orgId, org.userId, 'oidc');
      const { access_token } = await signIn(org.domain, org.username);
      const answers = await Promise.all([
        call(org.domain, `/api/v1/internal-user/${org.userId}/password`, { method: 'DELETE', token: access_token }),
        call(org.domain, '/api/v1/social/oidc', { method: 'DELETE', token: access_token }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const hasPassword = await count('SELECT count(*) AS n FROM users WHERE id = ? AND password_hash IS NOT NULL', org.userId);
      const links = await count('SELECT count(*) AS n FROM social_accounts WHERE user_id = ?', org.userId);
      expect(hasPassword + links).toBe(1);
    }
  });

  it('removes the organisation when its last two members delete their accounts at the same moment', async () => {
    const org = await createOrg('race-leavers');
    const secondId = await addUser(org.orgId, 'second@race-leavers.test');
    const first = await signIn(org.domain, org.username);
    const second = await signIn(org.domain, 'second@race-leavers.test');
    const answers = await Promise.all([
      call(org.domain, `/api/v1/internal-user/${org.userId}`, { method: 'DELETE', token: first.access_token, json: { confirm: org.username } }),
      call(org.domain, `/api/v1/internal-user/${secondId}`, { method: 'DELETE', token: second.access_token, json: { confirm: 'second@race-leavers.test' } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await count('SELECT count(*) AS n FROM organizations WHERE id = ?', org.orgId)).toBe(0);
  });

  it('keeps no copy of the password hash in the sign-up record once registration is complete, and none after deletion', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': true });
    const view = await startSignup('hash-copy');
    expect((await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' })).status).toBe(200);
    const mail = await env.DB.prepare(
      "SELECT text FROM system_mails WHERE subject = 'Complete your registration' AND to_address = 'ada@hash-copy.test'",
    ).first<{ text: string }>();
    const code = decodeURIComponent(/code=([^\s]+)/.exec(mail!.text)![1]);
    const done = await call('hash-copy', '/api/v1/internal-user/sign-complete', { method: 'POST', json: { code } });
    expect(done.status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM signups WHERE id = ? AND password_hash = ''", view.id)).toBe(1);
    const { access_token } = (await done.json()) as { access_token: string };
    const user = await env.DB.prepare("SELECT id FROM users WHERE username = 'ada@hash-copy.test'").first<{ id: number }>();
    const gone = await call('hash-copy', `/api/v1/internal-user/${user!.id}`, {
      method: 'DELETE',
      token: access_token,
      json: { confirm: 'ada@hash-copy.test' },
    });
    expect(gone.status).toBe(200);
    expect(await count('SELECT count(*) AS n FROM signups WHERE id = ?', view.id)).toBe(0);
  });
});

describe('small contract gaps', () => {
  it('refuses a profile update that gives the login both as email and as username', async () => {
    const org = await createOrg('both-logins');
    const { access_token } = await signIn(org.domain, org.username);
    const res = await call(org.domain, `/api/v1/internal-user/${org.userId}`, {
      method: 'PUT',
      token: access_token,
      json: { name: 'Both', email: 'new@both-logins.test', username: 'zz' },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { fields: Record<string, string[]> } }).error.fields.username).toBeTruthy();
  });

  it('limits how many sign-ups (each holding a domain for a day) one network address can start', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': true });
    const start = (i: number) =>
      platform('/api/v1/signup', {
        method: 'POST',
        headers: { 'cf-connecting-ip': '192.0.2.77' },
        json: { user: { name: 'Squat', email: `squat${i}@example.test`, password: 'Squat-2026!' }, organization: { name: 'S', domain: `squat-${i}` } },
      });
    for (let i = 0; i < SIGNUPS_PER_ADDRESS.max; i++) expect((await start(i)).status).toBe(201);
    expect((await start(99)).status).toBe(429);
  });

  it('says only that an empty email is required, not also that it is invalid', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': false });
    const res = await platform('/api/v1/pre-registration', { method: 'POST', json: { name: 'N', email: ' ', organization: 'O', comments: 'C' } });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.email).toEqual([MESSAGES.required]);
  });

  it('answers 503 provider_unavailable, not 500, when the social provider cannot be reached', async () => {
    await createOrg('provider-down');
    const req = new Request('http://provider-down.localhost:8787/api/v1/social/oidc/authorize', {
      method: 'POST',
      headers: { host: 'provider-down.localhost:8787', 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'login' }),
    });
    const res = await appFetch(req, { env: { OAUTH_OIDC_ISSUER: 'http://127.0.0.1:9' } });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('provider_unavailable');
  });
});

describe('malformed input never answers 500', () => {
  it('on the organisation routes (bodies and path ids)', async () => {
    const org = await createOrg('review-fuzz');
    const { access_token } = await signIn(org.domain, org.username);
    const routes: [string, string][] = [
      ['POST', '/internal-user/password-remind'],
      ['POST', '/internal-user/password-reset'],
      ['POST', '/internal-user/sign-complete'],
      ['POST', '/internal-user/me'],
      ['PUT', '/organization'],
      ['DELETE', '/session'],
      ['POST', '/internal-api-key'],
      ['POST', '/social/oidc/authorize'],
      ['POST', '/social/nope/authorize'],
      ['DELETE', '/social/oidc'],
      ['GET', '/social'],
      ['GET', '/demo'],
      ['GET', '/session'],
      ['GET', '/internal-api-key'],
      ['POST', '/internal-auth/token-refresh'],
    ];
    for (const id of ['abc', '0', '-1', '99999999999999999999', '1e3', String(org.userId), '%00', 'x'.repeat(3000)]) {
      routes.push(['PUT', `/internal-user/${id}/password`], ['PUT', `/internal-user/${id}`], ['DELETE', `/session/${id}`]);
      routes.push(['PUT', `/internal-api-key/${id}`], ['POST', `/internal-api-key/${id}/regenerate`], ['DELETE', `/internal-api-key/${id}`]);
    }
    const send: Send = (method, path, contentType, body) =>
      call(org.domain, `/api/v1${path}`, { method, token: access_token, headers: { 'content-type': contentType }, body });
    expect(await serverErrors(send, routes)).toEqual([]);
    // The account still exists: nothing above deleted it or changed its password.
    expect((await signIn(org.domain, org.username)).access_token).toBeTruthy();
  });

  it('on the platform and operator routes', async () => {
    await setSignup({ 'signup.enabled': true, 'signup.active': false });
    const bare =
      (auth?: string): Send =>
      (method, path, contentType, body) =>
        exports.default.fetch(
          new Request(`http://localhost:8787${path}`, {
            method,
            headers: { host: 'localhost:8787', 'content-type': contentType, ...(auth ? { authorization: auth } : {}) },
            body,
          }),
        );
    const guest = await serverErrors(bare(), [
      ['POST', '/api/v1/signup'],
      ['POST', '/api/v1/pre-registration'],
      ['POST', '/api/v1/signup/stripe-webhook'],
      ['GET', '/api/v1/signup/abc'],
      ['POST', '/api/v1/signup/abc/test-payment'],
      ['POST', '/api/v1/signup/00000000-0000-0000-0000-000000000000/test-payment'],
      ['GET', '/api/v1/social/callback/oidc?state=abc&code=x'],
      ['GET', '/api/v1/social/callback/oidc?state=&code='],
      ['GET', '/api/v1/social/callback/oidc?state=a&state=b'],
      ['GET', '/api/openapi.json'],
      ['GET', '/api/swagger-ui'],
    ]);
    const op = await serverErrors(bare('Bearer test-operator-token'), [
      ['PUT', '/api/v1/operator/settings'],
      ['GET', '/api/v1/operator/pre-registrations?status=x'],
      ['GET', '/api/v1/operator/pre-registrations?status=pending&status=approved'],
      ['POST', '/api/v1/operator/pre-registrations/abc/approve'],
      ['POST', '/api/v1/operator/pre-registrations/999999/approve'],
      ['POST', '/api/v1/operator/pre-registrations/99999999999999999999/decline'],
      ['GET', '/api/v1/operator/ledgers?limit=x'],
      ['GET', '/api/v1/operator/ledgers?limit=0'],
      ['GET', '/api/v1/operator/ledgers?limit=1&limit=2'],
      ['GET', '/api/v1/operator/ledgers?other=1'],
    ]);
    expect([...guest, ...op]).toEqual([]);
  });

  it('on odd hosts, X-ORG values, API-key headers and bearer tokens', async () => {
    const org = await createOrg('review-hdr');
    const hosts = [
      '',
      'localhost',
      '.localhost',
      'a..b.c',
      '[::1]:8787',
      '127.0.0.1:8787',
      'REVIEW-HDR.localhost',
      'review-hdr.localhost.',
      `${'x'.repeat(300)}.localhost`,
    ];
    const xOrgs = [undefined, 'review-hdr', 'REVIEW-HDR', ' ', 'a'.repeat(70), '~demo-x'];
    const keys = [undefined, ':', 'a:', ':b', `${org.username}:`, `${'x'.repeat(2000)}:y`, `${org.username}:rk_${'a'.repeat(43)}`];
    const failures: string[] = [];
    for (const host of hosts) {
      for (const xOrg of xOrgs) {
        for (const key of keys) {
          const headers: Record<string, string> = { host };
          if (xOrg !== undefined) headers['x-org'] = xOrg;
          if (key !== undefined) headers['x-api-key'] = key;
          const res = await exports.default.fetch(new Request('http://localhost:8787/api/v1/tag', { headers }));
          if (res.status >= 500) failures.push(`${host} ${xOrg} ${key} -> ${res.status} ${await res.text()}`);
          else await res.arrayBuffer();
          // None of these is a valid credential: nothing may be let in.
          if (res.status === 200) failures.push(`${host} ${xOrg} ${key} -> 200`);
        }
      }
    }
    for (const auth of ['Bearer', 'Bearer x', 'Bearer a.b.c', `Bearer ${'x'.repeat(10_000)}`, 'Basic abc']) {
      const res = await call(org.domain, '/api/v1/tag', { headers: { authorization: auth } });
      if (res.status !== 401) failures.push(`auth ${auth.slice(0, 20)} -> ${res.status}`);
      const refresh = await call(org.domain, '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { authorization: auth, 'x-refresh': auth } });
      if (refresh.status !== 401) failures.push(`refresh ${auth.slice(0, 20)} -> ${refresh.status}`);
    }
    expect(failures).toEqual([]);
  });
});
