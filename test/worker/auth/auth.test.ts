import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken } from '../../../src/lib/tokens';
import { call, createOrg, PASSWORD, signIn } from '../helpers';

const SECRET = 'test-secret-test-secret-test-secret-0123456789';
let org: string;
let username: string;
let counter = 0;

beforeEach(async () => {
  org = `auth${++counter}`;
  ({ username } = await createOrg(org));
});

/** The one session of an organisation's user in these tests. */
const sessionOf = (domain: string) =>
  env.DB.prepare('SELECT s.* FROM sessions s JOIN organizations o ON o.id = s.org_id WHERE o.domain = ?').bind(domain).first<Record<string, string>>();
const me = (token: string) => call(org, '/api/v1/internal-user/me', { token });
const refresh = (headers: Record<string, string>) => call(org, '/api/v1/internal-auth/token-refresh', { method: 'POST', headers });

describe('sign-in', () => {
  it('returns a token pair and the user', async () => {
    const tokens = await signIn(org, username);
    expect(tokens).toMatchObject({ expires_in: 900, auth_type_id: 1 });
    expect(tokens.refresh_token).toMatch(/^[\w-]{40,}$/);
    const res = await me(tokens.access_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { username, organization: { domain: org } } });
  });

  it('accepts the login in any case', async () => {
    await expect(signIn(org, username.toUpperCase())).resolves.toMatchObject({ auth_type_id: 1 });
  });

  it('refuses a wrong password and an unknown login with the same 401 message', async () => {
    for (const body of [
      { username, password: 'Wrong-123' },
      { username: 'ghost@x.test', password: PASSWORD },
    ]) {
      const res = await call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: body });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: { code: 'invalid_credentials', message: 'Invalid email or password. Please check your credentials and try again.' },
      });
    }
  });

  it('refuses a login after five failures within the window, even with the right password', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username, password: 'nope' } });
      expect(res.status).toBe(401);
    }
    const blocked = await call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username, password: PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await blocked.json()).toMatchObject({ error: { code: 'too_many_attempts' } });
  });

  it('lets the login in again once the window has passed', async () => {
    for (let i = 0; i < 5; i++) {
      await call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username, password: 'nope' } });
    }
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 16 * 60 * 1000);
    try {
      await expect(signIn(org, username)).resolves.toMatchObject({ auth_type_id: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('records the session with device, ip, agent and expiry, storing only a hash of the refresh token', async () => {
    const res = await call(org, '/api/v1/internal-auth/token-create', {
      method: 'POST',
      json: { username, password: PASSWORD },
      headers: { 'x-device': 'relay-console:abc123', 'user-agent': 'TestAgent/1.0', 'cf-connecting-ip': '203.0.113.9' },
    });
    const tokens = (await res.json()) as { refresh_token: string };
    const row = await sessionOf(org);
    expect(row).toMatchObject({ device: 'relay-console:abc123', ip: '203.0.113.9', user_agent: 'TestAgent/1.0' });
    expect(new Date(row!.expires_at).getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    expect(JSON.stringify(row)).not.toContain(tokens.refresh_token);
  });
});

describe('access tokens', () => {
  it('refuses a missing, forged, expired or foreign-organisation token', async () => {
    const tokens = await signIn(org, username);
    const { sub, sid } = JSON.parse(atob(tokens.access_token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    expect((await call(org, '/api/v1/internal-user/me')).status).toBe(401);
    const forged = await signAccessToken({ sub, org: 1, sid }, 'x'.repeat(40), 900);
    expect((await me(forged)).status).toBe(401);
    const orgId = (await env.DB.prepare('SELECT id FROM organizations WHERE domain = ?').bind(org).first<{ id: number }>())!.id;
    const expired = await signAccessToken({ sub, org: orgId, sid }, SECRET, -10);
    expect((await me(expired)).status).toBe(401);
    const other = await createOrg(`${org}-other`);
    const foreign = await signAccessToken({ sub: String(other.userId), org: other.orgId, sid }, SECRET, 900);
    expect((await me(foreign)).status).toBe(401);
    expect((await me(await signAccessToken({ sub, org: orgId, sid }, SECRET, 900))).status).toBe(200);
  });
});

describe('refresh', () => {
  it('rotates the refresh token given in x-refresh', async () => {
    const first = await signIn(org, username);
    const res = await refresh({ 'x-refresh': first.refresh_token });
    expect(res.status).toBe(200);
    const second = (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).status).toBe(200);
    const row = await sessionOf(org);
    expect(row?.refreshes_at).toBeTruthy();
  });

  it('accepts the refresh token as a bearer with X-Access-Token', async () => {
    const first = await signIn(org, username);
    const res = await refresh({ authorization: `Bearer ${first.refresh_token}`, 'x-access-token': first.access_token, 'x-device': 'd' });
    expect(res.status).toBe(200);
  });

  it('treats reuse of a rotated refresh token as theft and ends the session', async () => {
    const first = await signIn(org, username);
    const second = (await (await refresh({ 'x-refresh': first.refresh_token })).json()) as { access_token: string; refresh_token: string };
    const replay = await refresh({ 'x-refresh': first.refresh_token });
    expect(replay.status).toBe(401);
    expect((await refresh({ 'x-refresh': second.refresh_token })).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(401);
  });

  it('refuses an unknown, missing or expired refresh token', async () => {
    expect((await refresh({ 'x-refresh': 'not-a-token' })).status).toBe(401);
    expect((await refresh({})).status).toBe(401);
    const tokens = await signIn(org, username);
    await env.DB.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind((await sessionOf(org))!.id)
      .run();
    expect((await refresh({ 'x-refresh': tokens.refresh_token })).status).toBe(401);
  });

  it('refuses a refresh token on another organisation host', async () => {
    const tokens = await signIn(org, username);
    await createOrg(`${org}-b`);
    const res = await call(`${org}-b`, '/api/v1/internal-auth/token-refresh', { method: 'POST', headers: { 'x-refresh': tokens.refresh_token } });
    expect(res.status).toBe(401);
    expect((await refresh({ 'x-refresh': tokens.refresh_token })).status).toBe(200);
  });
});

describe('logout', () => {
  it('ends the session at once: access and refresh tokens stop working', async () => {
    const tokens = await signIn(org, username);
    const out = await call(org, '/api/v1/internal-auth/logout', { method: 'POST', token: tokens.access_token });
    expect(await out.json()).toEqual({ data: { ok: true } });
    expect((await me(tokens.access_token)).status).toBe(401);
    expect((await refresh({ 'x-refresh': tokens.refresh_token })).status).toBe(401);
  });

  it('leaves the user other sessions alone', async () => {
    const one = await signIn(org, username);
    const two = await signIn(org, username);
    await call(org, '/api/v1/internal-auth/logout', { method: 'POST', token: one.access_token });
    expect((await me(two.access_token)).status).toBe(200);
  });
});

describe('init', () => {
  it('gives guests the password policy, auth config and methods', async () => {
    const res = await call(org, '/api/v1/init/guest');
    expect(res.headers.get('x-version')).toBe('0.1.0');
    expect(await res.json()).toMatchObject({
      data: {
        password_config: {
          min_length: 6,
          is_upper_required: true,
          is_lower_required: true,
          is_number_required: true,
          extra_characters: '!=@-+#$%^&*{}_',
        },
        auth: { access_token_ttl: 900, refresh_header: 'x-refresh' },
        auth_methods: [
          { id: 1, details: { header: 'Authorization', prefix: 'Bearer' } },
          { id: 2, name: 'api_key', details: { header: 'X-API-KEY', prefix: '' } },
          { id: 3, name: 'social', details: { header: 'Authorization', prefix: 'Bearer' } },
          { id: 4, name: 'organization_api_key', details: { header: 'Authorization', prefix: 'Bearer' } },
        ],
        organization: { domain: org },
      },
    });
  });

  it('gives signed-in users themselves and the preloadables, and guests a 401', async () => {
    const tokens = await signIn(org, username);
    const res = await call(org, '/api/v1/init/user', { token: tokens.access_token });
    expect(await res.json()).toMatchObject({
      data: { user: { username }, preloadables: { integration_types: ['smtp', 'twilio'], address_types: ['email', 'phone'], integrations: [], fields: [] } },
    });
    expect((await call(org, '/api/v1/init/user')).status).toBe(401);
  });
});
