import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app';
import { createDb } from '../../../src/db/client';
import worker from '../../../src/index';
import { DEMO_LOGIN, DEMO_PASSWORD } from '../../../src/modules/demo/demo-info';
import { ensureDemoOrganization, resetDemoIfDue } from '../../../src/modules/demo/reset';
import { putOrgFile } from '../../../src/modules/files/stored-files';
import { call, createOrg, signIn } from '../helpers';

// One file, one database: the tests run in order and share the demo, which the first test creates.

const demoRow = () => env.DB.prepare("SELECT id, name FROM organizations WHERE domain = 'demo'").first<{ id: number; name: string }>();
const countOf = (table: string, orgId: number) =>
  env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE org_id = ?`)
    .bind(orgId)
    .first<{ n: number }>()
    .then((r) => r!.n);
const setResetAt = (iso: string) =>
  env.DB.prepare("INSERT INTO platform_settings (key, value) VALUES ('demo.reset_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
    .bind(JSON.stringify(iso))
    .run();
const usageOf = (orgId: number) => env.DB.prepare('SELECT file_bytes FROM org_usage WHERE org_id = ?').bind(orgId).first<{ file_bytes: number }>();
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function addContact(token: string, name: string) {
  const res = await call('demo', '/api/v1/contact', {
    method: 'POST',
    token,
    json: { name, addresses: [{ type: 'email', value: `${name.toLowerCase().replace(/\W+/g, '.')}@example.org` }] },
  });
  expect(res.status).toBe(201);
}

describe('the shared demo', () => {
  it('is created on the first request to demo.localhost, once, even by concurrent requests', async () => {
    expect(await demoRow()).toBeNull();
    const answers = await Promise.all([1, 2, 3].map(() => call('demo', '/api/v1/init/guest')));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { data: { organization: { id: number; name: string }; settings: { demo: boolean } } }[];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const ids = new Set(bodies.map((b) => b.data.organization.id));
    expect(ids.size).toBe(1);
    expect(bodies[0].data.organization.name).toBe('Demo Organisation');
    expect(bodies[0].data.settings.demo).toBe(true);

    const { results } = await env.DB.prepare("SELECT domain FROM organizations WHERE domain = 'demo' OR domain LIKE '~demo-%'").all();
    expect(results).toEqual([{ domain: 'demo' }]);
    const demo = (await demoRow())!;
    expect(await countOf('contacts', demo.id)).toBe(20);
    expect(await countOf('users', demo.id)).toBe(1);
    expect(await countOf('tags', demo.id)).toBeGreaterThanOrEqual(3);
    expect(await countOf('fields', demo.id)).toBeGreaterThanOrEqual(2);
    expect(await countOf('field_options', demo.id)).toBeGreaterThanOrEqual(2);
    expect(await countOf('contact_addresses', demo.id)).toBeGreaterThanOrEqual(20);
    expect(await countOf('contact_tags', demo.id)).toBeGreaterThanOrEqual(20);
    expect(await countOf('contact_attributes', demo.id)).toBeGreaterThanOrEqual(20);
    expect(await countOf('subscriptions', demo.id)).toBeGreaterThanOrEqual(1);
    const types = await env.DB.prepare('SELECT type FROM templates WHERE org_id = ? ORDER BY type').bind(demo.id).all<{ type: string }>();
    expect(types.results.map((t) => t.type)).toEqual(['email', 'text']);
    // A shared demo never reaches real servers.
    expect(await countOf('integrations', demo.id)).toBe(0);
    expect(await countOf('senders', demo.id)).toBe(0);
  });

  it('serves the console page for demo.localhost (no unknown-organisation page)', async () => {
    const res = await call('demo', '/contact', { headers: { accept: 'text/html' } });
    expect(await res.text()).not.toContain('Organisation not found');
  });

  it('signs in with the published login, and the seeded contacts are listed with their details', async () => {
    const { access_token } = await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    const res = await call('demo', '/api/v1/contact?page_size=100', { token: access_token });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { addresses: unknown[]; tags: unknown[]; attributes: unknown[] }[]; meta: { total: number } };
    expect(body.meta.total).toBe(20);
    expect(body.items.every((c) => c.addresses.length >= 1)).toBe(true);
    expect(body.items.some((c) => c.attributes.length >= 2)).toBe(true);
  });

  it('GET /demo tells the reset interval, the last and next reset and the login; other organisations have none', async () => {
    const res = await call('demo', '/api/v1/demo');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ reset_length: 24, login: DEMO_LOGIN, password: DEMO_PASSWORD });
    const resetAt = Date.parse(data.reset_at as string);
    expect(Math.abs(Date.now() - resetAt)).toBeLessThan(60_000);
    expect(Date.parse(data.next_reset_at as string) - resetAt).toBe(24 * 3_600_000);

    await createOrg('demoinfoother');
    const other = await call('demoinfoother', '/api/v1/demo');
    expect(other.status).toBe(404);
  });

  it('resetDemoIfDue leaves a fresh demo alone', async () => {
    const before = (await demoRow())!;
    const { access_token } = await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    await addContact(access_token, 'Kept Contact');
    expect(await resetDemoIfDue(env, createDb(env.DB))).toBe(false);
    expect((await demoRow())!.id).toBe(before.id);
    expect(await countOf('contacts', before.id)).toBe(21);
  });

  it('resetDemoIfDue resets a demo whose last reset is older than the interval', async () => {
    const old = (await demoRow())!;
    const { access_token } = await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    await addContact(access_token, 'Visitor Contact');
    await putOrgFile(env.FILES, createDb(env.DB), old.id, 'attachment', `orgs/${old.id}/templates/1/file.txt`, 'old file');
    expect(await usageOf(old.id)).toEqual({ file_bytes: 8 });
    await env.FILES.put('orgs/999999/keep.txt', 'another organisation');
    await setResetAt(hoursAgo(25));

    expect(await resetDemoIfDue(env, createDb(env.DB))).toBe(true);

    const fresh = (await demoRow())!;
    expect(fresh.id).not.toBe(old.id);
    expect(await countOf('contacts', old.id)).toBe(0);
    expect(await countOf('users', old.id)).toBe(0);
    expect(await countOf('contacts', fresh.id)).toBe(20);
    const visitor = await env.DB.prepare("SELECT COUNT(*) AS n FROM contacts WHERE name IN ('Visitor Contact', 'Kept Contact')").first<{ n: number }>();
    expect(visitor!.n).toBe(0);
    expect(await env.FILES.get(`orgs/${old.id}/templates/1/file.txt`)).toBeNull();
    // File volume went with the old demo; the fresh one starts from nothing.
    expect(await usageOf(old.id)).toBeNull();
    expect(await countOf('stored_files', old.id)).toBe(0);
    expect((await usageOf(fresh.id))?.file_bytes ?? 0).toBe(0);
    expect(await env.FILES.get('orgs/999999/keep.txt')).not.toBeNull();
    // Tokens of the old demo are no longer accepted; the published login works again.
    expect((await call('demo', '/api/v1/internal-user/me', { token: access_token })).status).toBe(401);
    await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD);
    const info = (await (await call('demo', '/api/v1/demo')).json()) as { data: { reset_at: string } };
    expect(Math.abs(Date.now() - Date.parse(info.data.reset_at))).toBeLessThan(60_000);
  });

  it('two due resets at once reset only once and leave exactly one demo', async () => {
    await setResetAt(hoursAgo(30));
    const db = createDb(env.DB);
    const results = await Promise.all([resetDemoIfDue(env, db), resetDemoIfDue(env, db)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const { results: orgs } = await env.DB.prepare("SELECT domain FROM organizations WHERE domain = 'demo' OR domain LIKE '~demo-%'").all();
    expect(orgs).toEqual([{ domain: 'demo' }]);
    expect(await countOf('contacts', (await demoRow())!.id)).toBe(20);
  });

  it('a missing reset time counts as due; ensureDemoOrganization returns the existing demo untouched', async () => {
    const current = (await demoRow())!;
    expect((await ensureDemoOrganization(createDb(env.DB))).id).toBe(current.id);
    await env.DB.prepare("DELETE FROM platform_settings WHERE key = 'demo.reset_at'").run();
    expect(await resetDemoIfDue(env, createDb(env.DB))).toBe(true);
    expect((await demoRow())!.id).not.toBe(current.id);
  });

  it('honours DEMO_RESET_HOURS', async () => {
    await setResetAt(hoursAgo(2));
    expect(await resetDemoIfDue({ ...env, DEMO_RESET_HOURS: '3' }, createDb(env.DB))).toBe(false);
    const before = (await demoRow())!.id;
    expect(await resetDemoIfDue({ ...env, DEMO_RESET_HOURS: '1' }, createDb(env.DB))).toBe(true);
    expect((await demoRow())!.id).not.toBe(before);
  });

  it('the scheduled handler resets a due demo and leaves other organisations alone', async () => {
    const other = await createOrg('cronother');
    await env.DB.prepare('INSERT INTO contacts (org_id, name) VALUES (?, ?)').bind(other.orgId, 'Stays').run();
    await setResetAt(hoursAgo(48));
    const before = (await demoRow())!.id;
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect((await demoRow())!.id).not.toBe(before);
    expect(await countOf('contacts', other.orgId)).toBe(1);
  });

  it('the scheduled handler recreates a deleted demo', async () => {
    await env.DB.prepare("DELETE FROM organizations WHERE domain = 'demo'").run();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);
    const demo = await demoRow();
    expect(demo?.name).toBe('Demo Organisation');
    expect(await countOf('contacts', demo!.id)).toBe(20);
  });

  it('the operator forces a reset with the operator token only', async () => {
    const app = buildApp();
    const operatorEnv = { ...env, OPERATOR_TOKEN: 'operator-token-for-tests-0123456789' };
    const post = (token?: string, useEnv: typeof env = operatorEnv) =>
      app.fetch(
        new Request('http://localhost:8787/api/v1/operator/demo/reset', {
          method: 'POST',
          headers: token ? { authorization: `Bearer ${token}` } : {},
        }),
        useEnv,
        createExecutionContext(),
      );
    const before = (await demoRow())!.id;
    expect((await post()).status).toBe(401);
    expect((await post('wrong-token')).status).toBe(401);
    expect((await post('operator-token-for-tests-0123456789', { ...env, OPERATOR_TOKEN: undefined })).status).toBe(404);
    expect((await demoRow())!.id).toBe(before);

    const res = await post('operator-token-for-tests-0123456789');
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { organization: { id: number; domain: string }; reset_at: string } };
    expect(data.organization.domain).toBe('demo');
    expect(data.organization.id).not.toBe(before);
    expect((await demoRow())!.id).toBe(data.organization.id);
  });
});
