import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, DEMO_PASSWORD } from '../../../src/modules/demo/demo-info';
import { lockedFeaturesFor } from '../../../src/modules/demo/locked-features';
import { call, createOrg, signIn } from '../helpers';

// Every locked call, written out here (not derived from the table), so a feature dropped from the table fails.
const locked = (userId: number): [string, string, unknown?][] => [
  ['PUT', `/internal-user/${userId}`, { name: 'Hacker', email: 'x@example.com' }],
  ['DELETE', `/internal-user/${userId}`, { confirm: DEMO_LOGIN }],
  ['PUT', `/internal-user/${userId}/password`, { current_password: DEMO_PASSWORD, password: 'Other-2026!' }],
  ['DELETE', `/internal-user/${userId}/password`],
  ['POST', '/internal-user/password-remind', { email: DEMO_LOGIN }],
  ['POST', '/internal-user/password-reset', { code: 'abc', password: 'Other-2026!' }],
  ['PUT', '/organization', { name: 'Taken over' }],
  ['POST', '/internal-api-key', { note: 'mine' }],
  ['PUT', '/internal-api-key/1', { note: 'mine' }],
  ['POST', '/internal-api-key/1/regenerate'],
  ['DELETE', '/internal-api-key/1'],
  ['POST', '/organization-api-key', { name: 'mine', scope: 'read' }],
  ['DELETE', '/organization-api-key/1'],
  ['DELETE', '/session/some-session'],
  ['DELETE', '/session', { ids: ['some-session'] }],
  ['POST', '/social/github/authorize', { action: 'link' }],
  ['DELETE', '/social/github'],
  ['POST', '/social/github/link', { state: 'x' }],
  ['POST', '/integration', { name: 'x', type: 'smtp' }],
  ['POST', '/integration/smtp', { name: 'x' }],
  ['PUT', '/integration/1', { name: 'x' }],
  ['PATCH', '/integration/1/smtp/credentials', { user: 'u', password: 'p' }],
  ['POST', '/integration/1/sync'],
  ['POST', '/integration/1/test'],
  ['POST', '/integration/priorities', { ids: [1] }],
  ['DELETE', '/integration/1'],
  ['DELETE', '/integration', { ids: [1] }],
  ['POST', '/sender', { integration_id: 1, type: 'email', value: 'a@example.com' }],
  ['PUT', '/sender/1', { value: 'a@example.com' }],
  ['PATCH', '/sender/1', { value: 'a@example.com' }],
  ['POST', '/template/1/test', { sender_id: 1, to: 'a@example.com' }],
  ['POST', '/broadcast', { name: 'x', sender_id: 1, template_id: 1, do_not_unsubscribe: true }],
  ['POST', '/broadcast/1/resume'],
  ['POST', '/broadcast/1/retry-failed'],
];

function send(org: string, token: string, method: string, path: string, json?: unknown) {
  return call(org, `/api/v1${path}`, { method, token, ...(json === undefined ? {} : { json }) });
}

describe('demo guard', () => {
  let demoToken: string;
  let demoUserId: number;
  let otherToken: string;
  let otherUserId: number;

  beforeAll(async () => {
    // The first request on demo.localhost creates the demo; sign-in stays open there.
    demoToken = (await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD)).access_token;
    const me = await call('demo', '/api/v1/internal-user/me', { token: demoToken });
    expect(me.status).toBe(200);
    demoUserId = ((await me.json()) as { data: { id: number } }).data.id;
    const other = await createOrg('guardother');
    otherUserId = other.userId;
    otherToken = (await signIn('guardother', other.username)).access_token;
  });

  it('refuses every locked call in the demo with 403 demo_locked', async () => {
    for (const [method, path, json] of locked(demoUserId)) {
      const res = await send('demo', demoToken, method, path, json);
      expect({ call: `${method} ${path}`, status: res.status }).toEqual({ call: `${method} ${path}`, status: 403 });
      expect(await res.json()).toMatchObject({ error: { code: 'demo_locked', message: 'This is a shared demo: this feature is locked.' } });
    }
  });

  it('refuses locked calls in the demo even without a token', async () => {
    const res = await call('demo', '/api/v1/organization', { method: 'PUT', json: { name: 'x' } });
    expect(res.status).toBe(403);
  });

  it('lets the same calls through in any other organisation', async () => {
    for (const [method, path, json] of locked(otherUserId)) {
      // Skip the ones that would really change this account; the route answers something other than the lock.
      if (method === 'DELETE' && path === `/internal-user/${otherUserId}`) continue;
      const res = await send('guardother', otherToken, method, path, json);
      const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
      expect({ call: `${method} ${path}`, code: body.error?.code }).not.toEqual({ call: `${method} ${path}`, code: 'demo_locked' });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
    }
  });

  it('keeps sign-in, refresh, logout and the ordinary editing open in the demo', async () => {
    const tokens = await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    const refreshed = await call('demo', '/api/v1/internal-auth/token-refresh', {
      method: 'POST',
      headers: { 'x-refresh': tokens.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    const { access_token } = (await refreshed.json()) as { access_token: string };

    const tag = await send('demo', access_token, 'POST', '/tag', { name: 'Guard test tag' });
    expect(tag.status).toBe(201);
    const contacts = await send('demo', access_token, 'GET', '/contact');
    expect(contacts.status).toBe(200);
    expect(((await contacts.json()) as { meta: { total: number } }).meta.total).toBeGreaterThanOrEqual(20);
    const templates = await send('demo', access_token, 'GET', '/template');
    expect(templates.status).toBe(200);

    // Social sign-in (not linking) is not locked: whatever the route answers, it is not the lock.
    const login = await send('demo', access_token, 'POST', '/social/github/authorize', { action: 'login' });
    expect(((await login.json().catch(() => ({}))) as { error?: { code?: string } }).error?.code).not.toBe('demo_locked');

    const logout = await send('demo', access_token, 'POST', '/internal-auth/logout');
    expect(logout.status).toBe(200);
  });

  it('a malformed body on social authorize is left to the route (no lock, no 500)', async () => {
    const res = await call('demo', '/api/v1/social/github/authorize', {
      method: 'POST',
      token: demoToken,
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).not.toBe(403);
    expect(res.status).toBeLessThan(500);
  });

  it('the table matches path segments exactly', () => {
    expect(lockedFeaturesFor('PUT', '/internal-user/7')).toHaveLength(1);
    expect(lockedFeaturesFor('GET', '/internal-user/7')).toHaveLength(0);
    expect(lockedFeaturesFor('POST', '/internal-auth/token-create')).toHaveLength(0);
    expect(lockedFeaturesFor('POST', '/sender/priorities')).toHaveLength(0);
    expect(lockedFeaturesFor('POST', '/template/1/preview')).toHaveLength(0);
    expect(lockedFeaturesFor('POST', '/template/1/test')).toHaveLength(1);
    expect(lockedFeaturesFor('DELETE', '/integration/1')).toHaveLength(1);
    expect(lockedFeaturesFor('GET', '/integration/1')).toHaveLength(0);
    expect(lockedFeaturesFor('DELETE', '/sessions')).toHaveLength(0);
  });

  it('never touches the demo user in the database while locked', async () => {
    const row = await env.DB.prepare('SELECT name FROM users WHERE id = ?').bind(demoUserId).first<{ name: string }>();
    expect(row?.name).toBe('Demo User');
  });
});
