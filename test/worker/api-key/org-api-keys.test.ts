// Organisation API keys, managed from the console (issue 36, "Keys for software, not people"): create, list and
// revoke; the key shown once and kept only as a hash; the input rules (a test key only sends or reads); only a
// console sign-in manages them; another organisation's key is a 404; the activity log names the key that acted.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { sha256Hex } from '../../../src/lib/tokens';
import { served } from '../../../src/modules/ledger/owner';
import { orgLedger } from '../../../src/modules/ledger/registry';
import { ORG_KEY_MESSAGES } from '../../../src/shared/contracts/org-api-key';
import { activityOf, body, bareHostCall } from '../account/helpers';
import { call } from '../helpers';
import { importCsv } from '../import/support';
import { createKey, keyOrg, newKey, storedKey, withKey, withKeyAndXOrg } from './helpers';

const list = (domain: string, token: string) => call(domain, '/api/v1/organization-api-key', { token });
const revoke = (domain: string, token: string, id: number | string) => call(domain, `/api/v1/organization-api-key/${id}`, { method: 'DELETE', token });

describe('organisation API keys: create, list, revoke', () => {
  it('creates a key shown once, stores only its hash and prefix, and lists it without the secret', async () => {
    const org = await keyOrg('ok-create');
    const res = await createKey(org, { name: 'Web shop', scope: 'send' });
    expect(res.status).toBe(201);
    const { data } = await body(res);
    expect(data.key).toMatch(/^rk_live_[0-9A-Za-z]{40}$/);
    expect(data).toEqual({
      id: expect.any(Number),
      name: 'Web shop',
      scope: 'send',
      test: false,
      prefix: data.key.slice(0, 14),
      created_by: { id: org.userId, name: 'ok-create owner' },
      last_used_at: null,
      revoked_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      key: data.key,
    });

    const stored = await storedKey(data.id);
    expect(stored).toMatchObject({ org_id: org.orgId, key_hash: await sha256Hex(data.key), prefix: data.prefix, created_by_user_id: org.userId });
    expect(JSON.stringify(stored)).not.toContain(data.key.slice(14));

    const listed = await body(await list('ok-create', org.token));
    const { key: _secret, ...row } = data;
    expect(listed).toEqual({ items: [row], meta: { total: 1, page: 1, page_size: 1, total_pages: 1 } });
    expect(JSON.stringify(listed)).not.toContain(data.key);
  });

  it('makes several keys, each with its own secret, newest first; a test key starts rk_test_', async () => {
    const org = await keyOrg('ok-many');
    const a = await newKey(org, 'read', { name: 'Reporting' });
    const b = await newKey(org, 'send', { name: 'Sandbox', test: true });
    const c = await newKey(org, 'full', { name: 'Back office' });
    expect(b.key).toMatch(/^rk_test_[0-9A-Za-z]{40}$/);
    expect(new Set([a.key, b.key, c.key]).size).toBe(3);
    const { items } = await body(await list('ok-many', org.token));
    expect(items.map((k: { name: string; test: boolean }) => [k.name, k.test])).toEqual([
      ['Back office', false],
      ['Sandbox', true],
      ['Reporting', false],
    ]);
  });

  it('revokes a key: it stops working at once, stays listed as revoked, and a second revoke changes nothing', async () => {
    const org = await keyOrg('ok-revoke');
    const key = await newKey(org, 'full');
    expect((await withKey('ok-revoke', key.key, '/api/v1/tag')).status).toBe(200);
    const res = await revoke('ok-revoke', org.token, key.id);
    expect(res.status).toBe(200);
    const revoked = (await body(res)).data;
    expect(revoked).toMatchObject({ id: key.id, revoked_at: expect.any(String) });
    expect(revoked.key).toBeUndefined();

    const refused = await withKey('ok-revoke', key.key, '/api/v1/tag');
    expect(refused.status).toBe(401);
    expect(await body(refused)).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await body(await list('ok-revoke', org.token))).items).toEqual([expect.objectContaining({ id: key.id, revoked_at: revoked.revoked_at })]);

    const again = await revoke('ok-revoke', org.token, key.id);
    expect(again.status).toBe(200);
    expect((await body(again)).data.revoked_at).toBe(revoked.revoked_at);
    expect((await activityOf(org.orgId, 'organization_api_key')).filter((r) => r.action === 'update')).toEqual([
      expect.objectContaining({ entity_id: key.id, field: 'revoked_at', previous_value: null, new_value: revoked.revoked_at }),
    ]);
  });

  it('a revocation reaches an isolate that still holds the key: the first ledger refuses it', async () => {
    // An isolate keeps a key's row for a few seconds (authenticate.ts); another isolate's revocation writes D1 and the
    // organisation's first ledger, which admits every call. Here the key is warm in this isolate's cache and the
    // revocation is made as another isolate makes it: D1 and the ledger, without this isolate forgetting it.
    const org = await keyOrg('ok-revoke-far');
    const key = await newKey(org, 'full');
    expect((await withKey('ok-revoke-far', key.key, '/api/v1/tag')).status).toBe(200);
    await env.DB.prepare('UPDATE org_api_keys SET revoked_at = ?1 WHERE id = ?2').bind(new Date().toISOString(), key.id).run();
    const ledger = (await orgLedger(env, createDb(env.DB), org.orgId))!;
    served(await ledger.stub.revokeApiKey(ledger.owner, key.id));

    const refused = await withKey('ok-revoke-far', key.key, '/api/v1/tag');
    expect(refused.status).toBe(401);
    // Refused again once the isolate has forgotten it (D1 says revoked).
    expect((await withKey('ok-revoke-far', key.key, '/api/v1/tag')).status).toBe(401);
  });

  it('logs create and revoke under the user who did them', async () => {
    const org = await keyOrg('ok-log');
    const key = await newKey(org, 'read', { name: 'Exports' });
    await revoke('ok-log', org.token, key.id);
    const rows = await activityOf(org.orgId, 'organization_api_key');
    expect(rows.map((r) => `${r.action}:${r.field}`)).toEqual(['create:name', 'create:scope', 'create:test', 'create:prefix', 'update:revoked_at']);
    expect(rows.every((r) => r.user_id === org.userId && r.entity_id === key.id)).toBe(true);
    expect(rows[0].new_value).toBe('Exports');
    // The secret is nowhere in the log.
    expect(JSON.stringify(rows)).not.toContain(key.key);
  });
});

describe('organisation API keys: input', () => {
  it('refuses a missing or long name, an unknown scope, a non-boolean test and unknown fields, with field messages', async () => {
    const org = await keyOrg('ok-bad');
    const cases: [unknown, string][] = [
      [{ scope: 'send' }, 'name'],
      [{ name: '   ', scope: 'send' }, 'name'],
      [{ name: 'x'.repeat(101), scope: 'send' }, 'name'],
      [{ name: 'x' }, 'scope'],
      [{ name: 'x', scope: 'admin' }, 'scope'],
      [{ name: 'x', scope: 'read', test: 'yes' }, 'test'],
      [{ name: 'x', scope: 'read', key: 'rk_live_mine' }, '_'],
    ];
    for (const [json, field] of cases) {
      const res = await createKey(org, json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(Object.keys((await body(res)).error.fields), JSON.stringify(json)).toContain(field);
    }
    expect((await call('ok-bad', '/api/v1/organization-api-key', { method: 'POST', token: org.token, body: 'name=x' })).status).toBe(415);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM org_api_keys WHERE org_id = ?').bind(org.orgId).first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it('a test key may only send or read: full is a 422 on scope', async () => {
    const org = await keyOrg('ok-test');
    const res = await createKey(org, { name: 'Staging', scope: 'full', test: true });
    expect(res.status).toBe(422);
    expect((await body(res)).error.fields).toEqual({ scope: [ORG_KEY_MESSAGES.testScope] });
    for (const scope of ['send', 'read']) expect((await createKey(org, { name: 'Staging', scope, test: true })).status).toBe(201);
    expect((await createKey(org, { name: 'Live', scope: 'full', test: false })).status).toBe(201);
  });

  it('answers 404 for ids that name no key of this organisation, and 401 without a sign-in', async () => {
    const org = await keyOrg('ok-404');
    const other = await keyOrg('ok-404b');
    const foreign = await newKey(other, 'full');
    for (const id of ['abc', '0', '-1', '99999999', String(foreign.id)]) expect((await revoke('ok-404', org.token, id)).status, id).toBe(404);
    expect((await body(await list('ok-404', org.token))).items).toEqual([]);
    // The other organisation's key still works.
    expect((await withKey('ok-404b', foreign.key, '/api/v1/tag')).status).toBe(200);
    expect((await call('ok-404', '/api/v1/organization-api-key')).status).toBe(401);
  });
});

describe('organisation API keys: only a console sign-in manages them', () => {
  it('refuses listing, creating and revoking with an organisation key (even a full one) or a personal key', async () => {
    const org = await keyOrg('ok-session');
    const full = await newKey(org, 'full');
    const personal = (await body(await call('ok-session', '/api/v1/internal-api-key', { method: 'POST', token: org.token, json: {} }))).data.key;
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/v1/organization-api-key'],
      ['POST', '/api/v1/organization-api-key', { name: 'Minted', scope: 'full' }],
      ['DELETE', `/api/v1/organization-api-key/${full.id}`],
    ];
    for (const [method, path, json] of attempts) {
      const byKey = await withKey('ok-session', full.key, path, { method, json });
      expect(byKey.status, `${method} ${path}`).toBe(403);
      expect((await body(byKey)).error.code).toBe('forbidden');
      const byPersonal = await bareHostCall(path, { method, json, xOrg: 'ok-session', apiKey: `${org.username}:${personal}` });
      expect(byPersonal.status, `${method} ${path}`).toBe(403);
    }
    expect((await storedKey(full.id))!.revoked_at).toBeNull();
    expect((await body(await list('ok-session', org.token))).items).toHaveLength(1);
  });
});

describe('the activity log names the key where there is no user', () => {
  it('records changes made with a key under the key, and the log answers its name', async () => {
    const org = await keyOrg('ok-actor');
    const key = await newKey(org, 'full', { name: 'CRM sync' });
    const tag = await withKeyAndXOrg('ok-actor', key.key, '/api/v1/tag', { method: 'POST', json: { name: 'From the CRM' } });
    expect(tag.status).toBe(201);
    const rows = await env.DB.prepare("SELECT user_id, api_key_id, field FROM activity_log WHERE org_id = ? AND entity = 'tag'")
      .bind(org.orgId)
      .all<{ user_id: number | null; api_key_id: number | null }>();
    expect(rows.results.length).toBeGreaterThan(0);
    expect(rows.results.every((r) => r.user_id === null && r.api_key_id === key.id)).toBe(true);

    // A change by the owner in the console names the owner.
    await call('ok-actor', '/api/v1/tag', { method: 'POST', token: org.token, json: { name: 'By hand' } });
    const log = await body(await call('ok-actor', '/api/v1/activity-log?entity=tag&page_size=50', { token: org.token }));
    const byKey = log.items.find((r: { new_value: string }) => r.new_value === 'From the CRM');
    const byUser = log.items.find((r: { new_value: string }) => r.new_value === 'By hand');
    expect(byKey).toMatchObject({ user_id: null, user_name: null, api_key_id: key.id, api_key_name: 'CRM sync' });
    expect(byUser).toMatchObject({ user_id: org.userId, user_name: 'ok-actor owner', api_key_id: null, api_key_name: null });
  });

  it('an import started with a key records the key, not a user', async () => {
    const org = await keyOrg('ok-import');
    const key = await newKey(org, 'full');
    const asKey = { domain: org.domain, orgId: org.orgId, token: key.key };
    const done = await importCsv(asKey, 'name,email\nAnn,ann@import.test\n', {
      skip_first_line: true,
      mapping: [
        { column: 0, target: 'name' },
        { column: 1, target: 'address', address_type: 'email' },
      ],
    });
    expect(done.status).toBe('success');
    const row = await env.DB.prepare('SELECT user_id, api_key_id FROM imports WHERE id = ?').bind(done.id).first();
    expect(row).toEqual({ user_id: null, api_key_id: key.id });
  });
});
