import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../../src/shared/messages';
import { addUser, call, createOrg, signIn } from '../helpers';
import { activityOf, bareHostCall, body } from './helpers';

const FORBIDDEN = 'Sign in to the console to manage your account.';
const create = (org: string, token: string, json: unknown = { note: 'ci' }) => call(org, '/api/v1/internal-api-key', { method: 'POST', token, json });
const tagsWithKey = (xOrg: string, apiKey: string) => bareHostCall('/api/v1/tag', { xOrg, apiKey });

async function setup(domain: string) {
  const org = await createOrg(domain);
  const { access_token } = await signIn(domain, org.username);
  return { ...org, token: access_token };
}

describe('API key lifecycle', () => {
  it('creates one key, shows it once, stores only a hash, and a second create is a 409', async () => {
    const { token, orgId, userId, username } = await setup('key-create');
    const res = await create('key-create', token, { note: 'deploy bot' });
    expect(res.status).toBe(201);
    const { data } = await body(res);
    expect(data.key).toMatch(/^rk_[\w-]{40,}$/);
    expect(data).toMatchObject({ name: `${data.key.slice(0, 10)}…`, note: 'deploy bot' });
    expect(Object.keys(data).sort()).toEqual(['created_at', 'id', 'key', 'name', 'note', 'updated_at']);

    const stored = await env.DB.prepare('SELECT * FROM api_keys WHERE org_id = ?').bind(orgId).first<Record<string, string>>();
    expect(stored!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(data.key);

    const listed = await body(await call('key-create', '/api/v1/internal-api-key', { token }));
    expect(listed).toEqual({
      items: [{ id: data.id, name: data.name, note: 'deploy bot', created_at: data.created_at, updated_at: data.updated_at }],
      meta: { total: 1, page: 1, page_size: 1, total_pages: 1 },
    });

    const again = await create('key-create', token);
    expect(again.status).toBe(409);
    expect(await body(again)).toMatchObject({ error: { code: 'api_key_exists', message: MESSAGES.apiKeyExists } });

    // The key works for the entity API, with X-ORG on a host that names no organisation.
    const tags = await tagsWithKey('key-create', `${username}:${data.key}`);
    expect(tags.status).toBe(200);
    expect(await body(tags)).toMatchObject({ items: [], meta: { total: 0 } });
    expect(await activityOf(orgId, 'api_key')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: userId, entity_id: data.id, action: 'create', field: 'name', new_value: data.name }),
        expect.objectContaining({ action: 'create', field: 'note', new_value: 'deploy bot' }),
      ]),
    );
  });

  it('lists nothing before a key exists; a note is optional', async () => {
    const { token } = await setup('key-empty');
    expect(await body(await call('key-empty', '/api/v1/internal-api-key', { token }))).toEqual({
      items: [],
      meta: { total: 0, page: 1, page_size: 0, total_pages: 1 },
    });
    const res = await create('key-empty', token, {});
    expect(res.status).toBe(201);
    expect((await body(res)).data.note).toBeNull();
  });

  it('regenerates: the old key stops working at once, the new one works', async () => {
    const { token, username, orgId } = await setup('key-regen');
    const first = (await body(await create('key-regen', token))).data;
    expect((await tagsWithKey('key-regen', `${username}:${first.key}`)).status).toBe(200);
    const res = await call('key-regen', `/api/v1/internal-api-key/${first.id}/regenerate`, { method: 'POST', token });
    expect(res.status).toBe(200);
    const second = (await body(res)).data;
    expect(second.id).toBe(first.id);
    expect(second.key).toMatch(/^rk_/);
    expect(second.key).not.toBe(first.key);
    expect(second.name).toBe(`${second.key.slice(0, 10)}…`);
    const old = await tagsWithKey('key-regen', `${username}:${first.key}`);
    expect(old.status).toBe(401);
    expect(await body(old)).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await tagsWithKey('key-regen', `${username}:${second.key}`)).status).toBe(200);
    expect((await activityOf(orgId, 'api_key')).filter((r) => r.action === 'update')).toEqual([
      expect.objectContaining({ field: 'name', previous_value: first.name, new_value: second.name }),
    ]);
  });

  it('edits the note, and deleting the key makes it stop working', async () => {
    const { token, username, orgId } = await setup('key-del');
    const key = (await body(await create('key-del', token))).data;
    const edited = await call('key-del', `/api/v1/internal-api-key/${key.id}`, { method: 'PUT', token, json: { note: 'renamed' } });
    expect(edited.status).toBe(200);
    const row = (await body(edited)).data;
    expect(row).toMatchObject({ id: key.id, note: 'renamed', name: key.name });
    expect(row.key).toBeUndefined();
    const del = await call('key-del', `/api/v1/internal-api-key/${key.id}`, { method: 'DELETE', token });
    expect(del.status).toBe(200);
    expect((await tagsWithKey('key-del', `${username}:${key.key}`)).status).toBe(401);
    expect((await call('key-del', `/api/v1/internal-api-key/${key.id}`, { method: 'DELETE', token })).status).toBe(404);
    // A new key may be created after deletion.
    expect((await create('key-del', token)).status).toBe(201);
    const actions = (await activityOf(orgId, 'api_key')).map((r) => `${r.action}:${r.field}`);
    expect(actions).toEqual(expect.arrayContaining(['update:note', 'delete:name']));
  });
});

describe('API-key authentication', () => {
  it('refuses wrong keys, wrong users, malformed headers and another organisation', async () => {
    const a = await setup('key-auth-a');
    const b = await setup('key-auth-b');
    const key = (await body(await create('key-auth-a', a.token))).data.key as string;
    const mate = await addUser(a.orgId, 'mate@key.test');
    void mate;
    for (const [xOrg, header] of [
      ['key-auth-a', `${a.username}:${key}x`],
      ['key-auth-a', `mate@key.test:${key}`],
      ['key-auth-a', `${a.username}:`],
      ['key-auth-a', `:${key}`],
      ['key-auth-a', key],
      ['key-auth-a', `${a.username}:${key.slice(0, 10)}`],
      ['key-auth-b', `${a.username}:${key}`],
      ['key-auth-b', `${b.username}:${key}`],
    ]) {
      const res = await tagsWithKey(xOrg, header);
      expect(res.status, `${xOrg} ${header}`).toBe(401);
    }
    // Right key, login in any case: accepted; no X-ORG on the bare host: the organisation is unknown.
    expect((await tagsWithKey('key-auth-a', `${a.username.toUpperCase()}:${key}`)).status).toBe(200);
    expect((await bareHostCall('/api/v1/tag', { apiKey: `${a.username}:${key}` })).status).toBe(404);
    // On the organisation's own host it works without X-ORG too.
    expect((await call('key-auth-a', '/api/v1/tag', { headers: { 'x-api-key': `${a.username}:${key}` } })).status).toBe(200);
  });

  it('refuses the account area and logout to API-key calls with 403, but serves GET /organization', async () => {
    const { token, username, userId, orgId } = await setup('key-403');
    const key = (await body(await create('key-403', token))).data;
    const apiKey = `${username}:${key.key}`;
    const attempts: [string, string, unknown?][] = [
      ['PUT', `/api/v1/internal-user/${userId}`, { name: 'N', email: 'n@key.test' }],
      ['PUT', `/api/v1/internal-user/${userId}/password`, { current_password: 'Secret-123', password: 'Fresh-456' }],
      ['DELETE', `/api/v1/internal-user/${userId}/password`],
      ['DELETE', `/api/v1/internal-user/${userId}`, { confirm: username }],
      ['PUT', '/api/v1/organization', { name: 'Pwned' }],
      ['GET', '/api/v1/session'],
      ['DELETE', '/api/v1/session', { ids: ['x'] }],
      ['GET', '/api/v1/internal-api-key'],
      ['POST', '/api/v1/internal-api-key', { note: 'x' }],
      ['POST', `/api/v1/internal-api-key/${key.id}/regenerate`],
      ['PUT', `/api/v1/internal-api-key/${key.id}`, { note: 'x' }],
      ['DELETE', `/api/v1/internal-api-key/${key.id}`],
      ['POST', '/api/v1/internal-auth/logout'],
    ];
    for (const [method, path, json] of attempts) {
      const res = await bareHostCall(path, { method, json, xOrg: 'key-403', apiKey });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await body(res)).toMatchObject({ error: { code: 'forbidden', message: FORBIDDEN } });
    }
    const org = await bareHostCall('/api/v1/organization', { xOrg: 'key-403', apiKey });
    expect(org.status).toBe(200);
    expect(await body(org)).toEqual({
      data: {
        id: orgId,
        name: 'key-403 Inc',
        domain: 'key-403',
        track_opens: true,
        track_clicks: true,
        message_retention_days: null,
        effective_retention_days: 90,
        soft_bounce_limit: 3,
        soft_bounce_days: 30,
      },
    });
    // Nothing changed: the key still works and the profile is as it was.
    expect((await tagsWithKey('key-403', apiKey)).status).toBe(200);
    expect((await body(await call('key-403', '/api/v1/internal-user/me', { token }))).data.username).toBe(username);
  });
});

describe('API key tenancy and input', () => {
  it("org B and a colleague cannot touch org A's user's key (404)", async () => {
    const a = await setup('key-tena');
    const b = await setup('key-tenb');
    await addUser(a.orgId, 'mate@keyt.test');
    const mate = await signIn('key-tena', 'mate@keyt.test');
    const key = (await body(await create('key-tena', a.token))).data;
    for (const [org, token] of [
      ['key-tena', mate.access_token],
      ['key-tenb', b.token],
    ]) {
      expect((await body(await call(org, '/api/v1/internal-api-key', { token }))).items).toEqual([]);
      expect((await call(org, `/api/v1/internal-api-key/${key.id}`, { method: 'PUT', token, json: { note: 'x' } })).status).toBe(404);
      expect((await call(org, `/api/v1/internal-api-key/${key.id}/regenerate`, { method: 'POST', token })).status).toBe(404);
      expect((await call(org, `/api/v1/internal-api-key/${key.id}`, { method: 'DELETE', token })).status).toBe(404);
    }
    // The colleague may have their own key at the same time.
    expect((await create('key-tena', mate.access_token)).status).toBe(201);
    expect((await tagsWithKey('key-tena', `${a.username}:${key.key}`)).status).toBe(200);
    const row = await env.DB.prepare('SELECT note FROM api_keys WHERE id = ?').bind(key.id).first<{ note: string }>();
    expect(row!.note).toBe('ci');
  });

  it('refuses malformed input with a 4xx', async () => {
    const { token } = await setup('key-bad');
    expect((await create('key-bad', token, { note: 5 })).status).toBe(422);
    expect((await create('key-bad', token, { note: 'x'.repeat(501) })).status).toBe(422);
    expect((await create('key-bad', token, { note: 'x', key: 'mine' })).status).toBe(422);
    expect((await call('key-bad', '/api/v1/internal-api-key', { method: 'POST', token, body: 'note=x' })).status).toBe(415);
    for (const id of ['abc', '0', '-1', '1e3', '99999999999999999999']) {
      expect((await call('key-bad', `/api/v1/internal-api-key/${id}`, { method: 'PUT', token, json: { note: 'x' } })).status).toBe(404);
      expect((await call('key-bad', `/api/v1/internal-api-key/${id}/regenerate`, { method: 'POST', token })).status).toBe(404);
    }
    expect((await call('key-bad', '/api/v1/internal-api-key')).status).toBe(401);
  });
});
