import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { signAccessToken } from '../../../src/lib/tokens';
import { MESSAGES } from '../../../src/shared/messages';
import { call, createOrg, signIn } from '../helpers';
import type { CurrentUser } from '../../../src/shared/contracts/auth';
import { atProvider, dataOf, DEVICE, linkFlow, openCallback, PROVIDER, providerUrl, socialFlow } from './flow';

/** Creates an organisation whose owner has linked the mock identity `subject`. */
async function orgWithLink(domain: string, subject: string) {
  const org = await createOrg(domain);
  const tokens = await signIn(org.domain, org.username);
  const linked = await linkFlow(org.domain, subject, tokens.access_token);
  expect(linked.confirm?.status).toBe(200);
  return org;
}

const loadMe = (org: string, body: unknown, contentType = 'application/json') =>
  call(org, '/api/v1/internal-user/me', { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': contentType } });

describe('social login', () => {
  it('signs in with a linked account: tokens on the organisation host, a live social session', async () => {
    const org = await orgWithLink('social-login-a', 'login-a-1');
    const { res, callback, location } = await socialFlow(org.domain, 'login', 'login-a-1');
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(location?.origin).toBe('http://social-login-a.localhost:8787');
    expect(location?.pathname).toBe('/social-login');
    const params = Object.fromEntries(location!.searchParams);
    expect(Object.keys(params).sort()).toEqual(['access_token', 'action', 'auth_type_id', 'expires_in', 'provider', 'refresh_token', 'state']);
    expect(params).toMatchObject({ action: 'login', provider: PROVIDER, auth_type_id: '3', expires_in: '900' });
    // The state goes along, so the console accepts the tokens only in the browser that started the sign-in.
    expect(params.state).toBe(callback.searchParams.get('state'));
    expect(params.state.length).toBeGreaterThan(20);

    const me = await call(org.domain, '/api/v1/internal-user/me', { token: params.access_token });
    expect(me.status).toBe(200);
    expect(await dataOf<CurrentUser>(me)).toMatchObject({ id: org.userId, username: org.username });

    // The session carries the device the console sent with authorize, and refreshes like any other.
    const session = await env.DB.prepare('SELECT auth_type_id, device FROM sessions WHERE org_id = ? AND user_id = ? AND auth_type_id = 3')
      .bind(org.orgId, org.userId)
      .first();
    expect(session).toEqual({ auth_type_id: 3, device: DEVICE });
    const refreshed = await call(org.domain, '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { 'x-refresh': params.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect(((await refreshed.json()) as { auth_type_id: number }).auth_type_id).toBe(3);
  });

  it('does not sign in an identity nobody linked (no linking by email)', async () => {
    const org = await createOrg('social-login-none');
    // The mock's email for this subject equals the owner's username: still no account.
    await env.DB.prepare('UPDATE users SET email = ? WHERE id = ?').bind('stranger@mock.test', org.userId).run();
    const { res, callback, location } = await socialFlow(org.domain, 'login', 'stranger');
    expect(res.status).toBe(302);
    expect(location?.origin).toBe('http://social-login-none.localhost:8787');
    expect(location?.pathname).toBe('/social-login');
    expect(Object.fromEntries(location!.searchParams)).toEqual({
      error: MESSAGES.noAccount,
      action: 'login',
      provider: PROVIDER,
      state: callback.searchParams.get('state'),
    });
    expect(await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);
  });

  it('does not sign in a user whose registration is not complete', async () => {
    const org = await orgWithLink('social-login-pending', 'pending-1');
    await env.DB.prepare('UPDATE users SET registration_pending = 1 WHERE id = ?').bind(org.userId).run();
    const { location } = await socialFlow(org.domain, 'login', 'pending-1');
    expect(location?.searchParams.get('error')).toBe(MESSAGES.registrationIncomplete);
    expect(location?.searchParams.get('access_token')).toBeNull();
  });

  it('a link in organisation A does not sign in to organisation B', async () => {
    const a = await orgWithLink('social-login-ta', 'cross-1');
    const b = await createOrg('social-login-tb');
    const fromB = await socialFlow(b.domain, 'login', 'cross-1');
    expect(fromB.location?.origin).toBe('http://social-login-tb.localhost:8787');
    expect(fromB.location?.searchParams.get('error')).toBe(MESSAGES.noAccount);

    // A's social token is A's only.
    const fromA = await socialFlow(a.domain, 'login', 'cross-1');
    const token = fromA.location!.searchParams.get('access_token')!;
    expect((await call(a.domain, '/api/v1/internal-user/me', { token })).status).toBe(200);
    expect((await call(b.domain, '/api/v1/internal-user/me', { token })).status).toBe(401);
    expect((await loadMe(b.domain, { device: DEVICE, access_token: token, auth_type_id: 3 })).status).toBe(401);
  });

  it('turns a refusal at the provider or a failed code exchange into a readable error', async () => {
    const org = await orgWithLink('social-login-fail', 'fail-1');
    const denied = await socialFlow(org.domain, 'login', 'deny');
    expect(denied.res.status).toBe(302);
    expect(denied.location?.pathname).toBe('/social-login');
    expect(denied.location?.searchParams.get('error')).toMatch(/cancelled or refused/);

    // A forged code with a genuine state: the provider refuses the exchange.
    const callback = await atProvider(await providerUrl(org.domain, 'login'), 'fail-1');
    callback.searchParams.set('code', 'forged-code');
    const forged = await openCallback(callback);
    expect(forged.status).toBe(302);
    const location = new URL(forged.headers.get('location')!);
    expect(location.origin).toBe('http://social-login-fail.localhost:8787');
    expect(location.searchParams.get('error')).toMatch(/could not confirm/);
    expect(location.searchParams.get('access_token')).toBeNull();
    expect(await env.DB.prepare('SELECT count(*) AS n FROM sessions WHERE org_id = ? AND auth_type_id = 3').bind(org.orgId).first('n')).toBe(0);
  });
});

describe('POST /internal-user/me', () => {
  it('loads the social user from the tokens the callback handed over', async () => {
    const org = await orgWithLink('social-me-a', 'me-1');
    const { location } = await socialFlow(org.domain, 'login', 'me-1');
    const token = location!.searchParams.get('access_token')!;

    const res = await loadMe(org.domain, { device: DEVICE, access_token: token, auth_type_id: 3 });
    expect(res.status).toBe(200);
    expect(await dataOf<CurrentUser>(res)).toMatchObject({
      id: org.userId,
      username: org.username,
      has_password: true,
      organization: { id: org.orgId, domain: org.domain },
    });

    // The auth type must be the session's.
    expect((await loadMe(org.domain, { device: DEVICE, access_token: token, auth_type_id: 1 })).status).toBe(401);
    // A token signed with another secret, or for a session that does not exist, is refused.
    const forged = await signAccessToken({ sub: String(org.userId), org: org.orgId, sid: 'x' }, 'another-secret-another-secret-0123456789', 900);
    expect((await loadMe(org.domain, { access_token: forged, auth_type_id: 3 })).status).toBe(401);
    const noSession = await signAccessToken({ sub: String(org.userId), org: org.orgId, sid: 'x' }, env.JWT_SECRET, 900);
    expect((await loadMe(org.domain, { access_token: noSession, auth_type_id: 3 })).status).toBe(401);
    // After logout the token is dead here too.
    expect((await call(org.domain, '/api/v1/internal-auth/logout', { method: 'POST', token })).status).toBe(200);
    expect((await loadMe(org.domain, { device: DEVICE, access_token: token, auth_type_id: 3 })).status).toBe(401);
  });

  it('refuses malformed input with 4xx and field messages', async () => {
    const org = await createOrg('social-me-bad');
    const bad = await loadMe(org.domain, { access_token: '', auth_type_id: 'three', extra: 1 });
    expect(bad.status).toBe(422);
    const body = (await bad.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(body.error.fields)).toEqual(expect.arrayContaining(['access_token', 'auth_type_id']));
    expect((await loadMe(org.domain, {})).status).toBe(422);
    expect((await loadMe(org.domain, { access_token: 'x', auth_type_id: 3, device: 'd'.repeat(301) })).status).toBe(422);
    expect((await loadMe(org.domain, { access_token: 'x', auth_type_id: 3 }, 'text/plain')).status).toBe(415);
    const broken = await call(org.domain, '/api/v1/internal-user/me', { method: 'POST', body: '{', headers: { 'content-type': 'application/json' } });
    expect(broken.status).toBe(400);
    expect((await loadMe(org.domain, { access_token: 'not-a-jwt', auth_type_id: 3 })).status).toBe(401);
  });
});
