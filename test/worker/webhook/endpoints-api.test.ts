// The webhook endpoints API (src/modules/webhook/routes.ts): create, read, change and delete, the secret answered
// once and sealed, rotation keeping the previous secret for 24 hours, the input refused with field messages, the
// limit per organisation, and tenancy (another organisation's endpoint is a 404 on every route).
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { decryptSecret } from '../../../src/lib/crypto/secret-box';
import {
  ENDPOINTS_PER_ORG_MAX,
  HEADER_VALUE_MASK,
  SECRET_OVERLAP_MS,
  WEBHOOK_MESSAGES,
  endpointSchema,
  endpointWithSecretSchema,
} from '../../../src/shared/contracts/webhook';
import { expect422 } from '../api-helpers';
import { newOrg, type Org, row } from '../channel-helpers';
import { ledgerSql } from '../helpers';

const RECEIVER = 'https://hooks.example.net/relay';
const INPUT = { url: RECEIVER, description: 'CRM', event_types: ['message.sent', 'contact.created'] };

async function createEndpoint(o: Org, input: Record<string, unknown> = INPUT) {
  const res = await o.api('POST', '/webhooks', input);
  expect(res.status, res.text).toBe(201);
  return res.body.data;
}

interface StoredEndpoint {
  secret: string;
  headers: string | null;
  previous_secret: string | null;
  previous_secret_until: string | null;
  enabled: number;
  disabled_reason: string | null;
  failing_since: string | null;
}

describe('endpoints CRUD', () => {
  it('creates an endpoint answering its secret once, sealed at rest, and lists, reads, changes and deletes it', async () => {
    const o = await newOrg('whk');
    const created = await createEndpoint(o, { ...INPUT, headers: { Authorization: 'Bearer abc', 'X-Team': 'ops' } });
    expect(endpointWithSecretSchema.parse(created)).toEqual(created);
    expect(created).toMatchObject({ url: RECEIVER, description: 'CRM', enabled: true, batch: false, state: 'active', disabled_reason: null });
    expect(created.event_types).toEqual(['message.sent', 'contact.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(created.headers).toEqual({ Authorization: HEADER_VALUE_MASK, 'X-Team': HEADER_VALUE_MASK });

    // At rest: the secret and the headers sealed, not in the clear.
    const stored = (await row<StoredEndpoint>('webhook_endpoints', created.id))!;
    expect(stored.secret).not.toContain(created.secret);
    expect(await decryptSecret(env.SECRETS_KEY, stored.secret)).toBe(created.secret);
    expect(stored.headers).not.toContain('Bearer');
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, stored.headers!))).toEqual({ Authorization: 'Bearer abc', 'X-Team': 'ops' });

    // Reads never show the secret nor a header's value.
    const read = await o.api('GET', `/webhooks/${created.id}`);
    expect(read.status).toBe(200);
    expect(endpointSchema.parse(read.body.data)).toEqual(read.body.data);
    expect(read.text).not.toContain(created.secret);
    expect(read.text).not.toContain('Bearer abc');
    const listed = await o.api('GET', '/webhooks');
    expect(listed.body.items.map((e: { id: number }) => e.id)).toEqual([created.id]);
    expect(listed.text).not.toContain(created.secret);

    // A masked value sent back keeps the stored one; a new name gets its value; a name left out is dropped.
    const patched = await o.api('PATCH', `/webhooks/${created.id}`, {
      description: 'CRM sync',
      event_types: ['*', 'message.sent'],
      headers: { Authorization: HEADER_VALUE_MASK, 'X-New': 'fresh' },
      batch: true,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ description: 'CRM sync', event_types: ['*'], batch: true });
    expect(patched.body.data.headers).toEqual({ Authorization: HEADER_VALUE_MASK, 'X-New': HEADER_VALUE_MASK });
    const after = (await row<StoredEndpoint>('webhook_endpoints', created.id))!;
    expect(JSON.parse(await decryptSecret(env.SECRETS_KEY, after.headers!))).toEqual({ Authorization: 'Bearer abc', 'X-New': 'fresh' });
    expect(await decryptSecret(env.SECRETS_KEY, after.secret)).toBe(created.secret);

    const deleted = await o.api('DELETE', `/webhooks/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(await row('webhook_endpoints', created.id)).toBeNull();
    expect((await o.api('GET', `/webhooks/${created.id}`)).status).toBe(404);
  });

  it('defaults: enabled on, batch off; created off when asked', async () => {
    const o = await newOrg('whk');
    const off = await createEndpoint(o, { ...INPUT, enabled: false });
    expect(off).toMatchObject({ enabled: false, state: 'off', batch: false });
  });

  it('turning an endpoint on clears why and since when the platform had it off', async () => {
    const o = await newOrg('whk');
    const created = await createEndpoint(o);
    await env.DB.prepare(
      "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'failing', disabled_at = '2026-01-01T00:00:00.000Z', failing_since = '2025-12-31T00:00:00.000Z' WHERE id = ?",
    )
      .bind(created.id)
      .run();
    const disabled = await o.api('GET', `/webhooks/${created.id}`);
    expect(disabled.body.data).toMatchObject({ state: 'disabled', disabled_reason: 'failing', failing_since: '2025-12-31T00:00:00.000Z' });

    const on = await o.api('PATCH', `/webhooks/${created.id}`, { enabled: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body.data).toMatchObject({ enabled: true, state: 'active', disabled_reason: null, disabled_at: null, failing_since: null });
  });
});

describe('the ledger mirror', () => {
  it('follows every create, change and delete (where the deliveries are made)', async () => {
    const o = await newOrg('whm');
    const mirrored = async (id: number) =>
      (await ledgerSql(o.orgId))
        .prepare('SELECT event_types, enabled, batch FROM webhook_endpoints WHERE id = ?')
        .bind(id)
        .first<{ event_types: string; enabled: number; batch: number }>();
    const created = await createEndpoint(o);
    expect(await mirrored(created.id)).toMatchObject({ enabled: 1, batch: 0 });
    expect(JSON.parse((await mirrored(created.id))!.event_types)).toEqual(['message.sent', 'contact.created']);
    await o.api('PATCH', `/webhooks/${created.id}`, { enabled: false, batch: true, event_types: ['*'] });
    expect(await mirrored(created.id)).toMatchObject({ enabled: 0, batch: 1 });
    expect(JSON.parse((await mirrored(created.id))!.event_types)).toEqual(['*']);
    await o.api('DELETE', `/webhooks/${created.id}`);
    expect(await mirrored(created.id)).toBeNull();
  });
});

describe('the signing secret', () => {
  it('rotation answers a new secret once and keeps the old one signing for 24 hours', async () => {
    const o = await newOrg('whk');
    const created = await createEndpoint(o);
    const before = Date.now();
    const rotated = await o.api('POST', `/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status, rotated.text).toBe(200);
    expect(endpointWithSecretSchema.parse(rotated.body.data)).toEqual(rotated.body.data);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(created.secret);

    const stored = (await row<StoredEndpoint>('webhook_endpoints', created.id))!;
    expect(await decryptSecret(env.SECRETS_KEY, stored.secret)).toBe(rotated.body.data.secret);
    expect(await decryptSecret(env.SECRETS_KEY, stored.previous_secret!)).toBe(created.secret);
    const until = Date.parse(stored.previous_secret_until!);
    expect(until).toBeGreaterThanOrEqual(before + SECRET_OVERLAP_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + SECRET_OVERLAP_MS);
    expect(rotated.body.data.previous_secret_until).toBe(stored.previous_secret_until);

    const read = await o.api('GET', `/webhooks/${created.id}`);
    expect(read.text).not.toContain(rotated.body.data.secret);
    expect(read.body.data).not.toHaveProperty('secret');
  });
});

describe('refused input', () => {
  it('an empty or unknown event type list, a reserved or malformed header, a long value', async () => {
    const o = await newOrg('whk');
    expect422(await o.api('POST', '/webhooks', { ...INPUT, event_types: [] }), { event_types: [WEBHOOK_MESSAGES.eventTypes] });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, event_types: ['message.sent', 'message.teleported'] }), {
      'event_types.1': [WEBHOOK_MESSAGES.eventType],
    });
    expect422(await o.api('POST', '/webhooks', { url: RECEIVER }), { event_types: [WEBHOOK_MESSAGES.eventTypes] });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: { 'Webhook-Signature': 'x' } }), {
      'headers.Webhook-Signature': [WEBHOOK_MESSAGES.headerReserved],
    });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: { 'User-Agent': 'x' } }), { 'headers.User-Agent': [WEBHOOK_MESSAGES.headerReserved] });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: { 'bad name': 'x' } }), { 'headers.bad name': [WEBHOOK_MESSAGES.headerName] });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: { 'X-Long': 'a'.repeat(1001) } }), { 'headers.X-Long': [WEBHOOK_MESSAGES.headerValue] });
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: { 'X-Split': 'a\r\nInjected: yes' } }), {
      'headers.X-Split': [WEBHOOK_MESSAGES.headerValue],
    });
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v']));
    expect422(await o.api('POST', '/webhooks', { ...INPUT, headers: eleven }), { headers: [WEBHOOK_MESSAGES.headers] });
    // The same rules on a change.
    const created = await createEndpoint(o);
    expect422(await o.api('PATCH', `/webhooks/${created.id}`, { event_types: [] }), { event_types: [WEBHOOK_MESSAGES.eventTypes] });
    expect422(await o.api('PATCH', `/webhooks/${created.id}`, { headers: { Host: 'evil' } }), { 'headers.Host': [WEBHOOK_MESSAGES.headerReserved] });
    expect((await o.api('GET', '/webhooks')).body.items).toHaveLength(1);
  });

  it.each([
    ['not a URL', 'not a url'],
    ['another scheme', 'ftp://hooks.example.net/x'],
    ['a private address (10/8)', 'https://10.1.2.3/hook'],
    ['a private address (172.16/12)', 'https://172.20.0.1/hook'],
    ['a private address (192.168/16)', 'https://192.168.1.10/hook'],
    ['link-local (cloud metadata)', 'https://169.254.169.254/latest'],
    ['CGNAT (100.64/10)', 'https://100.64.0.1/hook'],
    ['unique-local IPv6', 'https://[fd00::1]/hook'],
    ['link-local IPv6', 'https://[fe80::1]/hook'],
    ['unspecified', 'https://0.0.0.0/hook'],
    ['multicast', 'https://224.0.0.1/hook'],
    ["the platform's own host", 'https://localhost/hook'],
    ["an organisation's host on the platform", 'https://acme.localhost/hook'],
  ])('refuses %s on url (422) at creation and on a change', async (_kind, url) => {
    const o = await newOrg('whk');
    const res = await o.api('POST', '/webhooks', { ...INPUT, url });
    expect(res.status, res.text).toBe(422);
    expect(Object.keys(res.body.error.fields)).toEqual(['url']);
    const created = await createEndpoint(o);
    const patched = await o.api('PATCH', `/webhooks/${created.id}`, { url });
    expect(patched.status, patched.text).toBe(422);
    expect(Object.keys(patched.body.error.fields)).toEqual(['url']);
    expect((await o.api('GET', `/webhooks/${created.id}`)).body.data.url).toBe(RECEIVER);
  });

  it('refuses a replay since a moment older than 30 days, in the future, or not a moment', async () => {
    const o = await newOrg('whk');
    const created = await createEndpoint(o);
    const old = new Date(Date.now() - 31 * 24 * 3600_000).toISOString();
    const later = new Date(Date.now() + 3600_000).toISOString();
    for (const since of [old, later, 'yesterday']) {
      expect422(await o.api('POST', `/webhooks/${created.id}/replay`, { since }), { since: [WEBHOOK_MESSAGES.since] });
    }
  });
});

describe('limits', () => {
  it(`an organisation keeps at most ${ENDPOINTS_PER_ORG_MAX} endpoints (409 limit); deleting one makes room`, async () => {
    const o = await newOrg('whk');
    const values = Array.from({ length: ENDPOINTS_PER_ORG_MAX }, (_, i) => `(${o.orgId}, 'https://h${i}.example.net/', '["*"]', 'sealed')`);
    await env.DB.prepare(`INSERT INTO webhook_endpoints (org_id, url, event_types, secret) VALUES ${values.join(', ')}`).run();
    const refused = await o.api('POST', '/webhooks', INPUT);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'limit', message: WEBHOOK_MESSAGES.limit });
    const first = (await o.api('GET', '/webhooks')).body.items[0];
    expect((await o.api('DELETE', `/webhooks/${first.id}`)).status).toBe(200);
    await createEndpoint(o);
    // Another organisation's count is its own.
    await createEndpoint(await newOrg('whk'));
  });
});

describe('tenancy', () => {
  it("another organisation's endpoint is a 404 on every route, and stays as it was", async () => {
    const a = await newOrg('wha');
    const b = await newOrg('whb');
    const theirs = await createEndpoint(b);
    const id = theirs.id;
    const eventId = `evt_${'0'.repeat(32)}`;
    const attempts: [string, string, unknown?][] = [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`, { description: 'mine now' }],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['POST', `/webhooks/${id}/test`],
      ['GET', `/webhooks/${id}/deliveries`],
      ['POST', `/webhooks/${id}/deliveries/${eventId}/replay`],
      ['POST', `/webhooks/${id}/replay`, { since: new Date(Date.now() - 3600_000).toISOString() }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await a.api(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
    }
    expect((await a.api('GET', '/webhooks')).body.items).toEqual([]);
    const still = await b.api('GET', `/webhooks/${id}`);
    expect(still.body.data).toMatchObject({ description: 'CRM', updated_at: theirs.updated_at });
    const stored = (await row<StoredEndpoint>('webhook_endpoints', id))!;
    expect(await decryptSecret(env.SECRETS_KEY, stored.secret)).toBe(theirs.secret);
    expect(stored.previous_secret).toBeNull();
  });
});
