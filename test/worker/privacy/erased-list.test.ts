import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_AUDIENCE, exampleAudienceSql } from '../../../src/modules/contact/seed-example';
import { addressDigest, addressDigests } from '../../../src/modules/privacy/address-digest';
import { PRIVACY_MESSAGES } from '../../../src/shared/contracts/privacy';
import type { ImportMappingEntry } from '../../../src/shared/contracts/import';
import { api, expect422, newSession, rows, type Session } from '../api-helpers';
import { channels, newOrg } from '../channel-helpers';
import { confirmTokenIn, contactOf, membersOf, messagesTo, newEmail, send, setupForm, signUp } from '../form/public-helpers';
import { appFetch } from '../helpers';
import { importCsv, type Org as ImportOrg } from '../import/support';

// The "do not re-add" list (src/modules/privacy/erased-list.ts): an address an erasure put on it (written here
// straight into erased_addresses, as the erasure does) cannot come back through the contact API, an import or a
// category send; the person's own form sign-up can, and lifts it (single opt-in at once, double opt-in on confirming).

const ERASED = { 'addresses.0.value': [PRIVACY_MESSAGES.erasedAddress] };
const emailMapping: ImportMappingEntry[] = [
  { column: 0, target: 'name' },
  { column: 1, target: 'address', address_type: 'email' },
];

/** Puts an address on an organisation's list as the erasure does, under `ring` (the worker's key ring by default). */
async function putOnList(orgId: number, address: string, ring = env.SECRETS_KEY) {
  const digest = await addressDigest({ SECRETS_KEY: ring }, orgId, address);
  await env.DB.prepare('INSERT INTO erased_addresses (org_id, digest) VALUES (?, ?)').bind(orgId, digest).run();
}

async function listed(orgId: number, address: string) {
  const digests = await addressDigests(env, orgId, address);
  const found = await rows(
    `SELECT digest FROM erased_addresses WHERE org_id = ? AND digest IN (SELECT value FROM json_each(?))`,
    orgId,
    JSON.stringify(digests),
  );
  return found.length > 0;
}

const contactCount = async (orgId: number) => (await rows<{ n: number }>('SELECT count(*) AS n FROM contacts WHERE org_id = ?', orgId))[0].n;
const addressesOf = async (orgId: number, contactId: number) =>
  (await rows<{ value: string }>('SELECT value FROM contact_addresses WHERE org_id = ? AND contact_id = ? ORDER BY position', orgId, contactId)).map(
    (r) => r.value,
  );

const asImportOrg = (s: Session): ImportOrg => ({ domain: s.org, orgId: s.orgId, token: s.token });

describe('the contact API', () => {
  it('refuses to create a contact with an erased address (422 on the address, any case), writing nothing', async () => {
    const s = await newSession('erc');
    await putOnList(s.orgId, 'gone@example.test');
    const res = await api(s, 'POST', '/contact', { name: 'Back again', addresses: [{ type: 'email', value: 'Gone@Example.TEST' }] });
    expect422(res, ERASED);
    expect(await contactCount(s.orgId)).toBe(0);
    expect(await rows('SELECT id FROM activity_log WHERE org_id = ?', s.orgId)).toEqual([]);
    // An address not on the list is created as always.
    expect((await api(s, 'POST', '/contact', { name: 'Other', addresses: [{ type: 'email', value: 'other@example.test' }] })).status).toBe(201);
  });

  it('refuses an erased phone number too, and names the right address of several', async () => {
    const s = await newSession('erc');
    await putOnList(s.orgId, '+15550199001');
    const res = await api(s, 'POST', '/contact', {
      name: 'Two',
      addresses: [
        { type: 'email', value: 'fine@example.test' },
        { type: 'phone', value: '+15550199001' },
      ],
    });
    expect422(res, { 'addresses.1.value': [PRIVACY_MESSAGES.erasedAddress] });
    expect(await contactCount(s.orgId)).toBe(0);
  });

  it('refuses an update that adds or changes to an erased address; the contact keeps its addresses', async () => {
    const s = await newSession('erc');
    await putOnList(s.orgId, 'gone@example.test');
    const made = await api(s, 'POST', '/contact', { name: 'Ann', addresses: [{ type: 'email', value: 'ann@example.test' }] });
    expect(made.status).toBe(201);
    const id = made.body.data.id as number;
    const own = made.body.data.addresses[0].id as number;

    const added = await api(s, 'PATCH', `/contact/${id}`, {
      addresses: [
        { id: own, type: 'email', value: 'ann@example.test' },
        { type: 'email', value: 'gone@example.test' },
      ],
    });
    expect422(added, { 'addresses.1.value': [PRIVACY_MESSAGES.erasedAddress] });
    const changed = await api(s, 'PUT', `/contact/${id}`, { name: 'Ann', addresses: [{ id: own, type: 'email', value: 'gone@example.test' }] });
    expect422(changed, ERASED);
    expect(await addressesOf(s.orgId, id)).toEqual(['ann@example.test']);
    // An update that leaves the addresses alone is not affected.
    expect((await api(s, 'PATCH', `/contact/${id}`, { name: 'Ann B.' })).status).toBe(200);
  });

  it("is per organisation: another organisation's list, even holding this organisation's digest, changes nothing here", async () => {
    const a = await newSession('era');
    const b = await newSession('erb');
    await putOnList(b.orgId, 'shared@example.test');
    // B's row of A's digest (a digest moved across organisations) is still B's row.
    await env.DB.prepare('INSERT INTO erased_addresses (org_id, digest) VALUES (?, ?)')
      .bind(b.orgId, await addressDigest(env, a.orgId, 'shared@example.test'))
      .run();
    expect(await addressDigest(env, a.orgId, 'shared@example.test')).not.toBe(await addressDigest(env, b.orgId, 'shared@example.test'));
    expect((await api(a, 'POST', '/contact', { name: 'In A', addresses: [{ type: 'email', value: 'shared@example.test' }] })).status).toBe(201);
    expect422(await api(b, 'POST', '/contact', { name: 'In B', addresses: [{ type: 'email', value: 'shared@example.test' }] }), ERASED);
  });

  it('still finds a digest written under the old key after SECRETS_KEY rotated (a new first entry in the ring)', async () => {
    const s = await newSession('err');
    const oldRing = env.SECRETS_KEY;
    const rotated = `test2:rotated-secrets-key-rotated-secrets-key-98765,${oldRing}`;
    await putOnList(s.orgId, 'old@example.test', oldRing);
    // The new key writes a different digest: only the lookup under every key finds the old row.
    expect(await addressDigest({ SECRETS_KEY: rotated }, s.orgId, 'old@example.test')).not.toBe(await addressDigest(env, s.orgId, 'old@example.test'));
    const post = (value: string) =>
      appFetch(
        new Request(`http://${s.org}.localhost:8787/api/v1/contact`, {
          method: 'POST',
          headers: { host: `${s.org}.localhost:8787`, authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Rotated', addresses: [{ type: 'email', value }] }),
        }),
        { env: { SECRETS_KEY: rotated } },
      );
    const refused = await post('old@example.test');
    expect422({ status: refused.status, body: await refused.json() }, ERASED);
    expect((await post('new@example.test')).status).toBe(201);
  });
});

describe('the import', () => {
  it('rejects and counts a row with an erased address, without repeating it, and imports the other rows', async () => {
    const s = await newSession('eri');
    await putOnList(s.orgId, 'gone@example.test');
    const csv = ['name,email', 'Ann,ann@example.test', 'Gone,GONE@example.test', 'Bob,bob@example.test'].join('\n');
    const result = await importCsv(asImportOrg(s), csv, { skip_first_line: true, mapping: emailMapping });
    expect(result).toMatchObject({ status: 'success', created_count: 2, updated_count: 0, rejected_count: 1 });
    expect(result.rejections).toEqual([{ row: 3, reason: PRIVACY_MESSAGES.erasedAddress }]);
    const stored = await rows<{ value: string }>('SELECT value FROM contact_addresses WHERE org_id = ? ORDER BY value', s.orgId);
    expect(stored.map((r) => r.value)).toEqual(['ann@example.test', 'bob@example.test']);
    expect(JSON.stringify(await rows('SELECT rejections FROM imports WHERE org_id = ?', s.orgId))).not.toContain('gone@');
  });
});

describe('a category send', () => {
  it('is refused for an erased address that is no contact (no contact made); a send without a category goes', async () => {
    const o = await newOrg('ers');
    const { email } = await channels(o);
    const sub = await o.api('POST', '/subscription', { name: 'Updates' });
    expect(sub.status, sub.text).toBe(201);
    await putOnList(o.orgId, 'gone@example.test');
    const json = { to: 'gone@example.test', sender_id: email.id, subject: 'News', html: '<p>Hi</p>', subscription_id: sub.body.data.id };
    const refused = await o.api('POST', '/send', json);
    expect(refused.status, refused.text).toBe(422);
    expect(refused.body.error.fields).toEqual({ to: [PRIVACY_MESSAGES.erasedAddress] });
    expect(await contactCount(o.orgId)).toBe(0);
    const batch = await o.api('POST', '/send/batch', { messages: [json, { ...json, to: 'fresh@example.test' }] });
    expect(batch.status, batch.text).toBe(202);
    expect(batch.body.data.map((item: { status: number }) => item.status)).toEqual([422, 202]);
    expect((await rows<{ value: string }>('SELECT value FROM contact_addresses WHERE org_id = ?', o.orgId)).map((r) => r.value)).toEqual([
      'fresh@example.test',
    ]);
    expect((await o.api('POST', '/send', { ...json, subscription_id: undefined })).status).toBe(202);
    expect(await contactCount(o.orgId)).toBe(1);
  });
});

const RECEIVER = env.WEBHOOK_RECEIVER_URL;
let verifiers = 0;

/** A Turnstile siteverify that passes once (a verified token: the form's single opt-in applies). */
async function passingTurnstile() {
  const path = `/hooks/siteverify-erased-${++verifiers}`;
  await fetch(`${RECEIVER}/_control/script`, { method: 'POST', body: JSON.stringify({ path, answers: [{ status: 200, json: { success: true } }] }) });
  return {
    TURNSTILE_SITE_KEY: '1x00000000000000000000AA',
    TURNSTILE_SECRET_KEY: '1x0000000000000000000000000000000AA',
    TURNSTILE_VERIFY_URL: `${RECEIVER}${path}`,
  };
}

describe("the person's own sign-up", () => {
  it('single opt-in: allowed, and lifts the address off the list at once', async () => {
    const s = await setupForm({ doubleOptIn: false });
    const email = newEmail('single');
    await putOnList(s.o.orgId, email);
    const res = await signUp(s, { email, 'cf-turnstile-response': 'token' }, { env: await passingTurnstile() });
    expect(res.status, res.text).toBe(200);
    const contact = (await contactOf(s.o.orgId, email))!;
    expect(contact).not.toBeNull();
    expect((await membersOf(contact.id))[0].status).toBe('confirmed');
    expect(await listed(s.o.orgId, email)).toBe(false);
  });

  it('double opt-in: allowed, the list still refuses the address to the import and the API until the person confirms', async () => {
    const s = await setupForm();
    const email = newEmail('double');
    await putOnList(s.o.orgId, email);
    expect((await signUp(s, { email })).status).toBe(200);
    const contact = (await contactOf(s.o.orgId, email))!;
    expect((await membersOf(contact.id))[0].status).toBe('pending');
    expect(await listed(s.o.orgId, email)).toBe(true);

    const session: Session = { org: s.o.org, orgId: s.o.orgId, token: s.o.token };
    const before = await importCsv(asImportOrg(session), `name,email\nAgain,${email}\n`, { skip_first_line: true, mapping: emailMapping });
    expect(before).toMatchObject({ created_count: 0, updated_count: 0, rejected_count: 1 });
    expect(before.rejections).toEqual([{ row: 2, reason: PRIVACY_MESSAGES.erasedAddress }]);
    // Another contact cannot take it (taken), and the pending contact itself keeps it through an edit.
    const edit = await api(session, 'GET', `/contact/${contact.id}`);
    expect((await api(session, 'PUT', `/contact/${contact.id}`, { name: 'Edited', addresses: edit.body.data.addresses })).status).toBe(200);

    const token = confirmTokenIn((await messagesTo(s.o.orgId, email))[0]);
    expect((await send(s.host, '/f/confirm', { fields: { t: token } })).status).toBe(200);
    expect(await listed(s.o.orgId, email)).toBe(false);
    const after = await importCsv(asImportOrg(session), `name,email\nAgain,${email}\n`, { skip_first_line: true, mapping: emailMapping });
    expect(after).toMatchObject({ created_count: 0, updated_count: 1, rejected_count: 0 });
  });
});

describe('the example seed (scripts/seed.ts)', () => {
  const seed = async (domain: string) => {
    for (const statement of exampleAudienceSql(domain)
      .split(/;\s*\n/)
      .map((line) => line.trim().replace(/;$/, ''))
      .filter(Boolean))
      await env.DB.prepare(statement).run();
  };
  const emails = async (orgId: number) =>
    (await rows<{ value: string }>("SELECT value FROM contact_addresses WHERE org_id = ? AND type = 'email' ORDER BY value", orgId)).map((r) => r.value);
  const all = EXAMPLE_AUDIENCE.contacts.map((c) => c.email).sort();

  it('makes a missing example contact again, but not once the organisation has erased someone', async () => {
    const s = await newSession('ersd');
    await seed(s.org);
    expect(await emails(s.orgId)).toEqual(all);
    const first = EXAMPLE_AUDIENCE.contacts[0];
    const drop = async () => {
      await env.DB.prepare(
        "DELETE FROM contacts WHERE org_id = ? AND id = (SELECT contact_id FROM contact_addresses WHERE org_id = ? AND type = 'email' AND value = ?)",
      )
        .bind(s.orgId, s.orgId, first.email)
        .run();
    };
    await drop();
    await seed(s.org);
    expect(await emails(s.orgId)).toEqual(all);

    await drop();
    await putOnList(s.orgId, first.email);
    await seed(s.org);
    expect(await emails(s.orgId)).toEqual(all.filter((e) => e !== first.email));
  });
});
