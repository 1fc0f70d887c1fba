import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { FORM_LIMITS, FORM_MESSAGES } from '../../../src/shared/contracts/form';
import { type Org, channels, insertField, newOrg } from '../channel-helpers';

// The Form entity's API (/api/v1/form): CRUD on the shared contract, every refusal a 422 with field messages,
// tenancy (another organisation's form, subscriptions, fields, sender and template are refused), the limit.

async function subscription(o: Org, name: string): Promise<number> {
  const res = await o.api('POST', '/subscription', { name });
  expect(res.status, res.text).toBe(201);
  return res.body.data.id;
}

async function template(orgId: number, type: 'html' | 'email' | 'text'): Promise<number> {
  const row = await env.DB.prepare("INSERT INTO templates (org_id, type, name, subject, body) VALUES (?, ?, ?, 'Hi', 'Body') RETURNING id")
    .bind(orgId, type, `${type}-${Math.random()}`)
    .first<{ id: number }>();
  return row!.id;
}

const EMAIL = { kind: 'email', required: true };
const input = (subscriptionIds: number[], more: Record<string, unknown> = {}) => ({
  name: 'Newsletter',
  subscription_ids: subscriptionIds,
  fields: [EMAIL, { kind: 'name', required: false }],
  ...more,
});

let a: Org;
let news: number;
beforeEach(async () => {
  a = await newOrg('form');
  news = await subscription(a, 'News');
});

function expect422(res: { status: number; body: any; text: string }, fields: Record<string, string[]>) {
  expect(res.status, res.text).toBe(422);
  expect(res.body.error.fields).toEqual(fields);
}

describe('form API', () => {
  it('creates with defaults, a random public key and the hosted url, reads, updates, lists and deletes', async () => {
    const res = await a.api('POST', '/form', input([news], { allowed_origins: ['https://Example.com/', 'http://localhost:8787'] }));
    expect(res.status, res.text).toBe(201);
    const form = res.body.data;
    expect(form).toMatchObject({
      name: 'Newsletter',
      subscription_ids: [news],
      fields: [EMAIL, { kind: 'name', required: false }],
      double_opt_in: true,
      enabled: true,
      allowed_origins: ['https://example.com', 'http://localhost:8787'],
      signups: { pending: 0, confirmed: 0 },
    });
    expect(form.public_key).toMatch(/^[A-Za-z0-9]{22}$/);
    expect(form.url).toMatch(new RegExp(`^https?://${a.org}\\.[^/]+/f/${form.public_key}$`));
    expect((await a.api('GET', `/form/${form.id}`)).body.data).toEqual(form);

    const patched = await a.api('PATCH', `/form/${form.id}`, { double_opt_in: false, redirect_url: 'https://example.com/thanks' });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ double_opt_in: false, redirect_url: 'https://example.com/thanks', public_key: form.public_key });
    // A PATCH leaves what it does not name (no default creeps in).
    const renamed = await a.api('PATCH', `/form/${form.id}`, { name: 'Patched' });
    expect(renamed.body.data).toMatchObject({ name: 'Patched', double_opt_in: false, enabled: true, allowed_origins: form.allowed_origins });
    const put = await a.api('PUT', `/form/${form.id}`, input([news], { name: 'Renamed', redirect_url: null, allowed_origins: [], double_opt_in: true }));
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toMatchObject({ name: 'Renamed', double_opt_in: true, allowed_origins: [] });

    await a.api('POST', '/form', input([news], { name: 'Second' }));
    const listed = await a.api('GET', '/form?search=Ren');
    expect(listed.body.meta.total).toBe(1);
    expect(listed.body.items.map((f: any) => f.name)).toEqual(['Renamed']);
    expect((await a.api('GET', '/form')).body.meta.total).toBe(2);

    const log = await env.DB.prepare("SELECT action FROM activity_log WHERE org_id = ? AND entity = 'form' GROUP BY entity_id, action ORDER BY min(id)")
      .bind(a.orgId)
      .all<{ action: string }>();
    expect(log.results.map((r) => r.action)).toEqual(['create', 'update', 'create']);

    expect((await a.api('DELETE', `/form/${form.id}`)).body).toEqual({ data: { deleted: 1 } });
    expect((await a.api('GET', `/form/${form.id}`)).status).toBe(404);
    expect((await a.api('DELETE', '/form', { all: true })).body.data).toEqual({ deleted: 1, more: false });
  });

  it('counts sign-ups from the consents: confirmed, and pending not yet expired', async () => {
    const form = (await a.api('POST', '/form', input([news]))).body.data;
    const contact = await env.DB.prepare("INSERT INTO contacts (org_id, name) VALUES (?, 'x') RETURNING id").bind(a.orgId).first<{ id: number }>();
    const add = (confirmedAt: string | null, expiresAt: string | null) =>
      env.DB.prepare(
        "INSERT INTO consents (org_id, contact_id, form_id, form_name, subscription_ids, signed_up_at, confirmed_at, expires_at) VALUES (?, ?, ?, 'f', '[]', '2026-01-01', ?, ?)",
      )
        .bind(a.orgId, contact!.id, form.id, confirmedAt, expiresAt)
        .run();
    await add('2026-01-02', null);
    await add(null, '2999-01-01T00:00:00.000Z');
    await add(null, '2999-01-01T00:00:00.000Z');
    await add(null, '2000-01-01T00:00:00.000Z');
    expect((await a.api('GET', `/form/${form.id}`)).body.data.signups).toEqual({ pending: 2, confirmed: 1 });
  });

  it('refuses bad input with field messages', async () => {
    expect422(await a.api('POST', '/form', input([news], { fields: [{ kind: 'name', required: true }] })), { fields: [FORM_MESSAGES.emailFirst] });
    expect422(await a.api('POST', '/form', input([news], { fields: [{ kind: 'email', required: false }] })), { fields: [FORM_MESSAGES.emailFirst] });
    expect422(await a.api('POST', '/form', input([news], { fields: [EMAIL, { kind: 'name' }, { kind: 'name' }] })), { fields: [FORM_MESSAGES.duplicateField] });
    expect422(await a.api('POST', '/form', input([news], { fields: [EMAIL, { kind: 'custom', alias: 'nope' }] })), { fields: [FORM_MESSAGES.unknownField] });
    expect422(await a.api('POST', '/form', input([999999])), { subscription_ids: [FORM_MESSAGES.unknownSubscription] });
    for (const origin of ['http://example.com', 'ftp://example.com', 'https://example.com/path', 'example.com'])
      expect422(await a.api('POST', '/form', input([news], { allowed_origins: [origin] })), { allowed_origins: [FORM_MESSAGES.origin] });
    expect422(await a.api('POST', '/form', input([news], { allowed_origins: ['https://example.com'], redirect_url: 'https://evil.test/x' })), {
      redirect_url: [FORM_MESSAGES.redirectOrigin],
    });
    expect422(await a.api('POST', '/form', input([news], { redirect_url: 'javascript:alert(1)' })), { redirect_url: [FORM_MESSAGES.redirectOrigin] });
    const { phone, email } = await channels(a);
    expect422(await a.api('POST', '/form', input([news], { sender_id: phone.id })), { sender_id: [FORM_MESSAGES.senderEmail] });
    expect422(await a.api('POST', '/form', input([news], { template_id: await template(a.orgId, 'text') })), { template_id: [FORM_MESSAGES.templateEmail] });
    const field = await insertField(a.orgId, 'city', 'text');
    const ok = await a.api(
      'POST',
      '/form',
      input([news], { sender_id: email.id, template_id: await template(a.orgId, 'email'), fields: [EMAIL, { kind: 'custom', alias: 'city', required: true }] }),
    );
    expect(ok.status, ok.text).toBe(201);
    expect(field.id).toBeGreaterThan(0);
    // A later change of the origins may not strand the redirect.
    const form = (await a.api('POST', '/form', input([news], { name: 'R', allowed_origins: ['https://a.test'], redirect_url: 'https://a.test/ok' }))).body.data;
    expect422(await a.api('PATCH', `/form/${form.id}`, { allowed_origins: ['https://b.test'] }), { redirect_url: [FORM_MESSAGES.redirectOrigin] });
    expect422(await a.api('POST', '/form', input([news], { name: 'R' })), { name: ['Value already exists, use a different one.'] });
  });

  it("keeps organisations apart: B's form is not found, and A's references are refused to B", async () => {
    const b = await newOrg('formb');
    const form = (await a.api('POST', '/form', input([news]))).body.data;
    expect((await b.api('GET', `/form/${form.id}`)).status).toBe(404);
    expect((await b.api('PATCH', `/form/${form.id}`, { name: 'x' })).status).toBe(404);
    expect((await b.api('DELETE', `/form/${form.id}`)).status).toBe(404);
    expect((await b.api('GET', '/form')).body.meta.total).toBe(0);
    const { email } = await channels(a);
    await insertField(a.orgId, 'city', 'text');
    const bNews = await subscription(b, 'News');
    expect422(await b.api('POST', '/form', input([news])), { subscription_ids: [FORM_MESSAGES.unknownSubscription] });
    expect422(await b.api('POST', '/form', input([bNews], { sender_id: email.id })), { sender_id: [FORM_MESSAGES.senderEmail] });
    expect422(await b.api('POST', '/form', input([bNews], { template_id: await template(a.orgId, 'email') })), { template_id: [FORM_MESSAGES.templateEmail] });
    expect422(await b.api('POST', '/form', input([bNews], { fields: [EMAIL, { kind: 'custom', alias: 'city' }] })), { fields: [FORM_MESSAGES.unknownField] });
    expect((await a.api('GET', `/form/${form.id}`)).body.data.name).toBe('Newsletter');
  });

  it(`allows at most ${FORM_LIMITS.perOrganisation} forms`, async () => {
    const values = Array.from({ length: FORM_LIMITS.perOrganisation }, (_, i) => `(${a.orgId}, 'k${a.orgId}x${i}', 'F${i}', '[${news}]', '[]')`);
    await env.DB.prepare(`INSERT INTO forms (org_id, public_key, name, subscription_ids, fields) VALUES ${values.join(',')}`).run();
    const res = await a.api('POST', '/form', input([news], { name: 'One too many' }));
    expect(res.status, res.text).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'limit', message: FORM_MESSAGES.tooMany });
  });
});
