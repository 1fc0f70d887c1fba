import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { call, createOrg, PASSWORD } from '../helpers';
import { completionCode, platform, setSignup, startSignup } from './helpers';

/** Signs up and pays for a domain through the test checkout; returns the emailed completion code. */
async function paidAccount(domain: string): Promise<string> {
  const view = await startSignup(domain);
  expect((await platform(`/api/v1/signup/${view.id}/test-payment`, { method: 'POST' })).status).toBe(200);
  return completionCode(`ada@${domain}.test`, domain);
}

const complete = (org: string, code: unknown) => call(org, '/api/v1/internal-user/sign-complete', { method: 'POST', json: { code } });
const login = (org: string, username: string, password = PASSWORD) =>
  call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username, password } });

describe('sign-up completion', () => {
  beforeAll(() => setSignup({ 'signup.enabled': true, 'signup.active': true }));

  it('refuses sign-in until completion, then the code signs in once and sign-in works', async () => {
    const code = await paidAccount('finish-me');
    // A wrong password learns nothing about the pending registration.
    const wrong = await login('finish-me', 'ada@finish-me.test', 'Wrong-123');
    expect(wrong.status).toBe(401);
    const pending = await login('finish-me', 'ADA@finish-me.test');
    expect(pending.status).toBe(403);
    expect(await pending.json()).toMatchObject({ error: { code: 'registration_incomplete', message: MESSAGES.registrationIncomplete } });

    const res = await complete('finish-me', code);
    expect(res.status).toBe(200);
    const tokens = (await res.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ auth_type_id: 1, expires_in: expect.any(Number) });
    expect(typeof tokens.access_token).toBe('string');
    expect(typeof tokens.refresh_token).toBe('string');
    const me = await call('finish-me', '/api/v1/internal-user/me', { token: tokens.access_token as string });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { username: string } }).data.username).toBe('ada@finish-me.test');

    const signup = await env.DB.prepare("SELECT status FROM signups WHERE domain = 'finish-me'").first<{ status: string }>();
    expect(signup!.status).toBe('completed');
    expect(
      (await platform(`/api/v1/signup/${(await env.DB.prepare("SELECT id FROM signups WHERE domain = 'finish-me'").first<{ id: string }>())!.id}`)).body.data
        .status,
    ).toBe('completed');
    expect((await login('finish-me', 'ada@finish-me.test')).status).toBe(200);

    // The code works once.
    const replay = await complete('finish-me', code);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: { code: 'link_invalid', message: MESSAGES.signCompleteInvalid } });
  });

  it('refuses an expired code, a forged code and a code of another organisation', async () => {
    const code = await paidAccount('slow-one');
    await createOrg('other-co');
    const elsewhere = await complete('other-co', code);
    expect(elsewhere.status).toBe(400);
    expect(((await elsewhere.json()) as { error: { code: string } }).error.code).toBe('link_invalid');

    expect((await complete('slow-one', 'forged-code-forged-code-forged-code')).status).toBe(400);

    await env.DB.prepare(
      "UPDATE one_time_codes SET expires_at = '2000-01-01T00:00:00.000Z' WHERE purpose = 'sign_complete' AND org_id = (SELECT id FROM organizations WHERE domain = 'slow-one')",
    ).run();
    const expired = await complete('slow-one', code);
    expect(expired.status).toBe(400);
    expect(await expired.json()).toMatchObject({ error: { code: 'link_invalid', message: MESSAGES.signCompleteInvalid } });
    // Still pending: sign-in is still refused.
    expect((await login('slow-one', 'ada@slow-one.test')).status).toBe(403);
  });

  it('validates the body (422, 415, 400) and needs the organisation host', async () => {
    await createOrg('body-co');
    const empty = await call('body-co', '/api/v1/internal-user/sign-complete', { method: 'POST', json: {} });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: { fields: Record<string, string[]> } }).error.fields.code).toEqual([MESSAGES.required]);
    expect((await complete('body-co', 12345)).status).toBe(422);
    expect((await call('body-co', '/api/v1/internal-user/sign-complete', { method: 'POST', body: 'code=x' })).status).toBe(415);
    const malformed = await call('body-co', '/api/v1/internal-user/sign-complete', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await complete('no-such-org', 'x')).status).toBe(404);
    expect((await platform('/api/v1/internal-user/sign-complete', { method: 'POST', json: { code: 'x' } })).status).toBe(404);
  });
});
