import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/lib/tokens';
import { MESSAGES } from '../../../src/shared/messages';
import { addUser, call, createOrg, signIn } from '../helpers';
import type { SocialProviderView } from '../../../src/shared/contracts/social';
import { authorize, dataOf, linkFlow, PROVIDER, socialFlow } from './flow';

const linkedRows = (orgId: number) =>
  env.DB.prepare('SELECT user_id, subject, email, display_name FROM social_accounts WHERE org_id = ? ORDER BY id').bind(orgId).all();

describe('social link', () => {
  it('links the provider account to the signed-in user, lists it and logs it', async () => {
    const org = await createOrg('social-link-a');
    const tokens = await signIn(org.domain, org.username);

    const before = await call(org.domain, '/api/v1/social', { token: tokens.access_token });
    expect(before.status).toBe(200);
    expect(await dataOf<SocialProviderView[]>(before)).toEqual([{ id: PROVIDER, name: 'Mock ID', linked: false, account: null }]);

    const { res, callback, location, state, confirm } = await linkFlow(org.domain, 'link-a-1', tokens.access_token);
    // The provider sent the browser to the one platform-host callback, with the state.
    expect(callback.origin).toBe('http://localhost:8787');
    expect(callback.pathname).toBe(`/api/v1/social/callback/${PROVIDER}`);
    expect(state).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(state);
    expect(res.status).toBe(302);
    expect(location?.origin).toBe('http://social-link-a.localhost:8787');
    expect(location?.pathname).toBe('/me/security');
    expect(Object.fromEntries(location!.searchParams)).toEqual({ status: 'social-link', provider: PROVIDER, state });
    // The console of the browser that started it confirmed the link with the user's session.
    expect(confirm?.status).toBe(200);
    expect(await confirm!.json()).toEqual({ data: { status: 'social-link', provider: PROVIDER } });
    expect(await env.DB.prepare('SELECT count(*) AS n FROM oauth_states WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);

    const after = await call(org.domain, '/api/v1/social', { token: tokens.access_token });
    expect(await dataOf<SocialProviderView[]>(after)).toEqual([{ id: PROVIDER, name: 'Mock ID', linked: true, account: 'link-a-1@mock.test' }]);
    expect((await linkedRows(org.orgId)).results).toEqual([
      { user_id: org.userId, subject: 'link-a-1', email: 'link-a-1@mock.test', display_name: 'Mock link-a-1' },
    ]);
    const log = await env.DB.prepare('SELECT user_id, entity, action, field, previous_value, new_value FROM activity_log WHERE org_id = ?')
      .bind(org.orgId)
      .all();
    expect(log.results).toEqual([
      { user_id: org.userId, entity: 'social_account', action: 'create', field: PROVIDER, previous_value: null, new_value: 'link-a-1@mock.test' },
    ]);
  });

  it('asks the provider for an S256 PKCE challenge, the OIDC scopes and our callback', async () => {
    const org = await createOrg('social-link-url');
    const tokens = await signIn(org.domain, org.username);
    const res = await authorize(org.domain, 'link', { token: tokens.access_token });
    expect(res.status).toBe(200);
    const url = new URL(((await res.json()) as { data: { url: string } }).data.url);
    expect(url.origin).toBe(env.OAUTH_OIDC_ISSUER);
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(`http://localhost:8787/api/v1/social/callback/${PROVIDER}`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('scope')).toBe('openid email profile');
    expect(url.searchParams.get('response_type')).toBe('code');
    // Only the state's hash is stored, with the organisation, action, user and device.
    const state = url.searchParams.get('state')!;
    const row = await env.DB.prepare('SELECT org_id, provider, action, user_id, device, expires_at FROM oauth_states WHERE state_hash = ?')
      .bind(await sha256Hex(state))
      .first<{ org_id: number; provider: string; action: string; user_id: number; device: string; expires_at: string }>();
    expect(row).toMatchObject({ org_id: org.orgId, provider: PROVIDER, action: 'link', user_id: org.userId, device: 'test-device-fingerprint' });
    const ttl = Date.parse(row!.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM oauth_states WHERE state_hash = ?').bind(state).first('n')).toBe(0);
  });

  it('refuses an account already linked to another user, and a second account of the same provider', async () => {
    const org = await createOrg('social-link-other');
    const owner = await signIn(org.domain, org.username);
    expect((await linkFlow(org.domain, 'shared-1', owner.access_token)).confirm?.status).toBe(200);

    const secondId = await addUser(org.orgId, 'second@social-link-other.test');
    const second = await signIn(org.domain, 'second@social-link-other.test');
    const taken = await linkFlow(org.domain, 'shared-1', second.access_token);
    expect(taken.res.status).toBe(302);
    expect(taken.location?.origin).toBe('http://social-link-other.localhost:8787');
    expect(taken.location?.pathname).toBe('/me/security');
    expect(taken.confirm?.status).toBe(409);
    expect(await taken.confirm!.json()).toMatchObject({ error: { code: 'social_already_linked', message: MESSAGES.socialAlreadyLinked } });

    // The owner cannot add a second identity at the same provider either.
    const another = await linkFlow(org.domain, 'shared-2', owner.access_token);
    expect(another.confirm?.status).toBe(409);
    expect(await another.confirm!.json()).toMatchObject({ error: { message: MESSAGES.socialOtherAccountLinked } });

    // Linking the same identity again only refreshes it.
    const again = await linkFlow(org.domain, 'shared-1', owner.access_token);
    expect(again.confirm?.status).toBe(200);
    expect((await linkedRows(org.orgId)).results).toEqual([
      { user_id: org.userId, subject: 'shared-1', email: 'shared-1@mock.test', display_name: 'Mock shared-1' },
    ]);
    expect(secondId).not.toBe(org.userId);
  });

  it('needs a console sign-in to link: guests get 401, API keys 403', async () => {
    const org = await createOrg('social-link-auth');
    expect((await authorize(org.domain, 'link')).status).toBe(401);
    expect((await authorize(org.domain, 'link', { token: 'not-a-jwt' })).status).toBe(401);

    const key = 'test-api-key-for-social-link-auth';
    await env.DB.prepare('INSERT INTO api_keys (org_id, user_id, name, key_hash) VALUES (?, ?, ?, ?)')
      .bind(org.orgId, org.userId, 'test-api', await sha256Hex(key))
      .run();
    const res = await authorize(org.domain, 'link', { headers: { 'x-api-key': `${org.username}:${key}` } });
    expect(res.status).toBe(403);
    const unlink = await call(org.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', headers: { 'x-api-key': `${org.username}:${key}` } });
    expect(unlink.status).toBe(403);
    // The key itself works for reading: the refusal is about linking, not the key.
    expect((await call(org.domain, '/api/v1/social', { headers: { 'x-api-key': `${org.username}:${key}` } })).status).toBe(200);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM oauth_states WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);
  });

  it('sends a refusal at the provider back to account security with a readable error', async () => {
    const org = await createOrg('social-link-deny');
    const tokens = await signIn(org.domain, org.username);
    const { res, callback, location } = await socialFlow(org.domain, 'link', 'deny', tokens.access_token);
    expect(res.status).toBe(302);
    expect(location?.pathname).toBe('/me/security');
    expect(location?.searchParams.get('status')).toBe('social-link');
    expect(location?.searchParams.get('error')).toMatch(/cancelled or refused/);
    expect(location?.searchParams.get('state')).toBe(callback.searchParams.get('state'));
    // Nothing waits for a confirmation either.
    expect(await env.DB.prepare('SELECT count(*) AS n FROM oauth_states WHERE org_id = ?').bind(org.orgId).first('n')).toBe(0);
    expect((await linkedRows(org.orgId)).results).toEqual([]);
  });
});

describe('social unlink', () => {
  it('unlinks, logs it, and answers the status the console navigates with', async () => {
    const org = await createOrg('social-unlink-a');
    const tokens = await signIn(org.domain, org.username);
    expect((await linkFlow(org.domain, 'unlink-a-1', tokens.access_token)).confirm?.status).toBe(200);

    const res = await call(org.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', token: tokens.access_token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { status: 'social-unlink', provider: PROVIDER } });
    expect((await linkedRows(org.orgId)).results).toEqual([]);
    const list = await call(org.domain, '/api/v1/social', { token: tokens.access_token });
    expect((await dataOf<SocialProviderView[]>(list))[0]).toMatchObject({ id: PROVIDER, linked: false, account: null });
    const log = await env.DB.prepare("SELECT field, previous_value, new_value FROM activity_log WHERE org_id = ? AND action = 'delete'").bind(org.orgId).all();
    expect(log.results).toEqual([{ field: PROVIDER, previous_value: 'unlink-a-1@mock.test', new_value: null }]);

    // Nothing linked any more: 404, also for unknown providers.
    expect((await call(org.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', token: tokens.access_token })).status).toBe(404);
    expect((await call(org.domain, '/api/v1/social/nope', { method: 'DELETE', token: tokens.access_token })).status).toBe(404);
    expect((await call(org.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE' })).status).toBe(401);
  });

  it('refuses to remove the last login method (no password, one social account)', async () => {
    const org = await createOrg('social-unlink-last');
    const owner = await signIn(org.domain, org.username);
    expect((await linkFlow(org.domain, 'last-1', owner.access_token)).confirm?.status).toBe(200);
    const login = await socialFlow(org.domain, 'login', 'last-1');
    const social = login.location!.searchParams.get('access_token')!;
    await env.DB.prepare('UPDATE users SET password_hash = NULL WHERE id = ?').bind(org.userId).run();

    const res = await call(org.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', token: social });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { code: 'last_login_method', message: MESSAGES.lastLoginMethod } });
    expect((await linkedRows(org.orgId)).results).toHaveLength(1);
  });

  it('keeps organisations apart: org B cannot see or remove org A links', async () => {
    const a = await createOrg('social-unlink-ta');
    const b = await createOrg('social-unlink-tb');
    const aTokens = await signIn(a.domain, a.username);
    const bTokens = await signIn(b.domain, b.username);
    expect((await linkFlow(a.domain, 'tenancy-1', aTokens.access_token)).confirm?.status).toBe(200);

    // A's token means nothing on B's host, and B's user has nothing linked.
    expect((await call(b.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', token: aTokens.access_token })).status).toBe(401);
    expect((await call(b.domain, `/api/v1/social/${PROVIDER}`, { method: 'DELETE', token: bTokens.access_token })).status).toBe(404);
    const bList = await call(b.domain, '/api/v1/social', { token: bTokens.access_token });
    expect((await dataOf<SocialProviderView[]>(bList))[0]).toMatchObject({ linked: false });
    // B's session cannot start a link on A's host.
    expect((await authorize(a.domain, 'link', { token: bTokens.access_token })).status).toBe(401);
    expect((await linkedRows(a.orgId)).results).toHaveLength(1);
  });
});
