// A person's data export (issue 40, src/modules/privacy/export) on the Workers runtime: GET /contact/{id}/export
// answers everything the organisation keeps of the contact (D1 records, activity log, ledger messages with their
// events, archived messages read only from the R2 objects the archive index names), as streamed JSON and as a
// readable html page; nothing of another contact or organisation; logged; a read key may export, a send key not.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { ledgerBinding } from '../../../src/modules/ledger/ledger-db';
import { openNextGeneration } from '../../../src/modules/ledger/registry';
import { archiveOldMessages } from '../../../src/modules/retention/archive';
import { insertAttribute, insertField, newOrg, type Org } from '../channel-helpers';
import { appFetch, call, ledgerSql } from '../helpers';

const E = env as unknown as Env;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

async function sql(query: string, ...params: unknown[]) {
  return env.DB.prepare(query)
    .bind(...params)
    .all<Record<string, any>>();
}

/** A message in the organisation's ledger; answers its id. */
async function ledgerMessage(orgId: number, m: { contactId: number | null; to: string; subject: string; age?: number; body?: string }) {
  const at = daysAgo(m.age ?? 0);
  const row = await (await ledgerSql(orgId))
    .prepare(
      `INSERT INTO messages (org_id, type, status, contact_id, contact_name, from_address, to_address, subject, body, body_plain, sent_at,
         opens_total, opened_at, error, created_at, updated_at)
       VALUES (?, 'email', 'sent', ?, ?, 'news@acme.test', ?, ?, ?, ?, ?, 1, ?, NULL, ?, ?) RETURNING id`,
    )
    .bind(orgId, m.contactId, m.contactId ? 'Named' : null, m.to, m.subject, m.body ?? '', m.body ? `${m.subject} (text)` : null, at, at, at, at)
    .first<{ id: number }>();
  return row!.id;
}

/** A tracking event of a message. */
async function hit(orgId: number, messageId: number, e: { id: string; kind: string; url?: string; cls: string; reason: string; ua: string; age?: number }) {
  await (await ledgerSql(orgId))
    .prepare(
      `INSERT INTO tracking_events (id, org_id, message_id, kind, link_index, url, class, reason, method, user_agent, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'GET', ?, ?)`,
    )
    .bind(e.id, orgId, messageId, e.kind, e.url ? 0 : -1, e.url ?? null, e.cls, e.reason, e.ua, daysAgo(e.age ?? 0))
    .run();
}

async function gzip(text: string) {
  return new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

interface Person {
  o: Org;
  contactId: number;
  otherId: number;
  email: string;
  phone: string;
  news: number;
  offers: number;
  consentId: number;
  ledgerIds: { own: number; bare: number; other: number };
  archived: { own: number; other: number; bare: number };
  indexedKeys: string[];
  strayKey: string;
}

/**
 * An organisation whose contact has every kind of data: field values, tags, a form consent, an unsubscribe with a
 * comment, suppressions of its addresses, activity-log rows, ledger messages with hits, and archived messages that
 * share their archive objects with another contact's. Plus an object in the archive folder the index does not name.
 */
async function personWithData(prefix: string, email: string): Promise<Person> {
  const o = await newOrg(prefix);
  const phone = '+15550101234';
  const tag = await o.api('POST', '/tag', { name: 'Early adopters' });
  expect(tag.status, tag.text).toBe(201);
  const created = await o.api('POST', '/contact', {
    name: 'Ada Person',
    note: 'Met at the fair',
    language: 'de',
    addresses: [
      { type: 'email', value: email },
      { type: 'phone', value: phone },
    ],
    tags: [tag.body.data.id],
  });
  expect(created.status, created.text).toBe(201);
  const contactId = created.body.data.id as number;
  const other = await o.api('POST', '/contact', { name: 'Bob Other', addresses: [{ type: 'email', value: 'bob@other.test' }] });
  expect(other.status, other.text).toBe(201);
  const otherId = other.body.data.id as number;
  const patched = await o.api('PATCH', `/contact/${contactId}`, { note: 'Prefers mail' });
  expect(patched.status, patched.text).toBe(200);

  const colour = await insertField(o.orgId, 'colour', 'text');
  const plan = await insertField(o.orgId, 'plan', 'select', ['Basic', 'Gold']);
  await insertAttribute(o.orgId, contactId, colour.id, { text: 'teal' });
  await insertAttribute(o.orgId, contactId, plan.id, { optionId: plan.optionIds.Gold });
  await insertAttribute(o.orgId, otherId, colour.id, { text: 'bob-colour' });

  const [news, offers] = [
    (await sql('INSERT INTO subscriptions (org_id, name) VALUES (?, ?) RETURNING id', o.orgId, 'Newsletter')).results[0].id as number,
    (await sql('INSERT INTO subscriptions (org_id, name) VALUES (?, ?) RETURNING id', o.orgId, 'Offers')).results[0].id as number,
  ];
  const consentId = (
    await sql(
      `INSERT INTO consents (org_id, contact_id, form_id, form_name, subscription_ids, signed_up_at, signup_user_agent, signup_ip_hash,
         confirmed_at, confirm_user_agent, confirm_ip_hash) VALUES (?, ?, NULL, 'Footer form', ?, '2026-01-02T10:00:00.000Z', 'SignupAgent/1', 'iphash-signup',
         '2026-01-02T10:05:00.000Z', 'ConfirmAgent/2', 'iphash-confirm') RETURNING id`,
      o.orgId,
      contactId,
      JSON.stringify([news]),
    )
  ).results[0].id as number;
  await sql(
    "INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source, consent_id) VALUES (?, ?, ?, 'confirmed', 'form', ?)",
    o.orgId,
    news,
    contactId,
    consentId,
  );
  await sql(
    "INSERT INTO unsubscribes (org_id, contact_id, subscription_id, message_id, broadcast_id, reason, comment, source) VALUES (?, ?, ?, 77, 8, 'too_often', 'Far too many offers', 'page')",
    o.orgId,
    contactId,
    offers,
  );
  await sql(
    "INSERT INTO unsubscribes (org_id, contact_id, subscription_id, comment, source) VALUES (?, ?, ?, 'bob comment', 'page')",
    o.orgId,
    otherId,
    offers,
  );
  const listed = await o.api('POST', '/blacklist', { type: 'email', value: email, info: 'Asked by phone' });
  expect(listed.status, listed.text).toBe(201);
  expect((await o.api('POST', '/blacklist', { type: 'email', value: 'bob@other.test' })).status).toBe(201);
  await sql("INSERT INTO sms_opt_outs (org_id, phone, keyword) VALUES (?, ?, 'STOP')", o.orgId, phone);
  await sql("INSERT INTO sms_opt_outs (org_id, phone, keyword) VALUES (?, '+15550109999', 'STOP')", o.orgId);
  await sql("INSERT INTO soft_bounces (org_id, address, count, since, last_message_id) VALUES (?, ?, 2, '2026-02-01T00:00:00.000Z', 41)", o.orgId, email);
  await sql(
    "INSERT INTO soft_bounces (org_id, address, count, since, last_message_id) VALUES (?, 'bob@other.test', 1, '2026-02-01T00:00:00.000Z', 42)",
    o.orgId,
  );

  // Archived: their mail and Bob's in the same month's object (and a bare send to their address), Bob's alone in another month.
  const archivedOwn = await ledgerMessage(o.orgId, { contactId, to: email, subject: 'Archived hello', age: 40 });
  await hit(o.orgId, archivedOwn, {
    id: `${prefix}-a1`,
    kind: 'click',
    url: 'https://acme.test/old',
    cls: 'human',
    reason: 'person',
    ua: 'OldBrowser/9',
    age: 39,
  });
  const archivedOther = await ledgerMessage(o.orgId, { contactId: otherId, to: 'bob@other.test', subject: 'Archived for Bob', age: 40 });
  await hit(o.orgId, archivedOther, { id: `${prefix}-a2`, kind: 'open', cls: 'human', reason: 'person', ua: 'BobBrowser/1', age: 39 });
  const archivedBare = await ledgerMessage(o.orgId, { contactId: null, to: email, subject: 'Archived receipt', age: 40 });
  await ledgerMessage(o.orgId, { contactId: otherId, to: 'bob@other.test', subject: 'Older for Bob', age: 75 });
  const retention = await o.api('PUT', '/organization', { name: 'Export Org', message_retention_days: 30 });
  expect(retention.status, retention.text).toBe(200);
  expect(await archiveOldMessages(createDb(E.DB), E)).toBe(4);
  const objects = (await sql('SELECT key FROM message_archives WHERE org_id = ? ORDER BY key', o.orgId)).results.map((r) => r.key as string);
  expect(objects).toHaveLength(2);
  const indexedKeys = objects.filter((key) => key.includes(daysAgo(40).slice(0, 7)));
  expect(indexedKeys).toHaveLength(1);
  // A stray object in the archive folder that the index does not name: the export must never open it.
  const strayKey = `orgs/${o.orgId}/archive/messages/2001-01/1-1.ndjson.gz`;
  await env.FILES.put(
    strayKey,
    await gzip(`${JSON.stringify({ message: { id: 1, contact_id: contactId, to_address: email, subject: 'Stray' }, events: [] })}\n`),
  );

  // In the ledger: theirs with hits, a bare send to their address (as typed, in capitals: matched as the erasure matches), Bob's.
  const own = await ledgerMessage(o.orgId, { contactId, to: email, subject: 'Welcome Ada', body: '<p>Hi Ada</p>' });
  await hit(o.orgId, own, { id: `${prefix}-e1`, kind: 'open', cls: 'prefetch', reason: 'apple_mpp', ua: 'Mozilla/5.0 (Macintosh)' });
  await hit(o.orgId, own, { id: `${prefix}-e2`, kind: 'click', url: 'https://acme.test/offer', cls: 'human', reason: 'person', ua: 'Firefox/130' });
  const bare = await ledgerMessage(o.orgId, { contactId: null, to: email.toUpperCase(), subject: 'Your receipt' });
  const otherMsg = await ledgerMessage(o.orgId, { contactId: otherId, to: 'bob@other.test', subject: 'Hello Bob' });
  await hit(o.orgId, otherMsg, { id: `${prefix}-e3`, kind: 'open', cls: 'human', reason: 'person', ua: 'BobBrowser/1' });
  return {
    o,
    contactId,
    otherId,
    email,
    phone,
    news,
    offers,
    consentId,
    ledgerIds: { own, bare, other: otherMsg },
    archived: { own: archivedOwn, other: archivedOther, bare: archivedBare },
    indexedKeys,
    strayKey,
  };
}

const exportOf = (o: Org, id: number, format = 'json', token = o.token) => call(o.org, `/api/v1/contact/${id}/export?format=${format}`, { token });

/** Reads a body chunk by chunk: the chunks and the whole text. */
async function readChunks(res: Response): Promise<{ chunks: number; text: string }> {
  expect(res.body).toBeInstanceOf(ReadableStream);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let chunks = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks += 1;
    text += decoder.decode(value, { stream: true });
  }
  return { chunks, text: text + decoder.decode() };
}

describe('contact export', () => {
  it('holds every kind of data of the contact, and nothing of another contact', async () => {
    const p = await personWithData('xa', 'ada@person.test');
    const res = await exportOf(p.o, p.contactId);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="contact-${p.contactId}-export.json"`);
    const doc = JSON.parse((await readChunks(res)).text);
    expect(Object.keys(doc)).toEqual([
      'exported_at',
      'organization',
      'contact',
      'subscriptions',
      'consents',
      'unsubscribes',
      'suppressions',
      'activity',
      'messages',
      'archived_messages',
    ]);
    expect(Date.now() - Date.parse(doc.exported_at)).toBeLessThan(60_000);
    expect(doc.organization).toEqual({ id: p.o.orgId, name: 'Export Org' });

    expect(doc.contact).toMatchObject({
      id: p.contactId,
      name: 'Ada Person',
      note: 'Prefers mail',
      language: 'de',
      membership: 'implied',
      addresses: [expect.objectContaining({ type: 'email', value: 'ada@person.test' }), expect.objectContaining({ type: 'phone', value: p.phone })],
      tags: [expect.objectContaining({ name: 'Early adopters' })],
      field_values: [
        { field: 'colour', value: 'teal' },
        { field: 'plan', value: 'Gold' },
      ],
    });
    expect(doc.contact.attributes).toHaveLength(2);
    expect(doc.contact.blacklisted_addresses).toEqual([doc.contact.addresses[0].id]);
    expect(doc.contact.created_at).toEqual(expect.any(String));

    const standing = Object.fromEntries(doc.subscriptions.map((s: any) => [s.subscription, s]));
    expect(standing.Newsletter).toMatchObject({ subscription_id: p.news, status: 'confirmed', source: 'form', consent_id: p.consentId });
    expect(standing.Offers).toMatchObject({ subscription_id: p.offers, status: 'unsubscribed' });

    expect(doc.consents).toEqual([
      expect.objectContaining({
        id: p.consentId,
        form_name: 'Footer form',
        subscription_ids: [p.news],
        signed_up_at: '2026-01-02T10:00:00.000Z',
        signup_user_agent: 'SignupAgent/1',
        signup_ip_hash: 'iphash-signup',
        confirmed_at: '2026-01-02T10:05:00.000Z',
        confirm_user_agent: 'ConfirmAgent/2',
        confirm_ip_hash: 'iphash-confirm',
      }),
    ]);
    expect(doc.unsubscribes).toEqual([
      expect.objectContaining({
        subscription_id: p.offers,
        subscription: 'Offers',
        reason: 'too_often',
        comment: 'Far too many offers',
        source: 'page',
        message_id: 77,
        broadcast_id: 8,
      }),
    ]);
    expect(doc.suppressions.blacklist).toEqual([expect.objectContaining({ type: 'email', value: 'ada@person.test', info: 'Asked by phone' })]);
    expect(doc.suppressions.sms_opt_outs).toEqual([expect.objectContaining({ phone: p.phone, keyword: 'STOP' })]);
    expect(doc.suppressions.soft_bounces).toEqual([{ address: 'ada@person.test', count: 2, since: '2026-02-01T00:00:00.000Z', last_message_id: 41 }]);

    // The contact's own log rows (create, update, this export) and the blacklist's row naming their address.
    const activity = doc.activity as any[];
    expect(activity.filter((a) => a.entity === 'contact').every((a) => a.entity_id === p.contactId)).toBe(true);
    expect(activity).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ entity: 'contact', action: 'create', field: 'name', new_value: 'Ada Person' }),
        expect.objectContaining({ entity: 'contact', action: 'update', field: 'note', previous_value: 'Met at the fair', new_value: 'Prefers mail' }),
        expect.objectContaining({ entity: 'contact', action: 'export', field: 'format', new_value: 'json' }),
        expect.objectContaining({ entity: 'blacklist', action: 'create', field: 'value', new_value: 'ada@person.test' }),
      ]),
    );
    expect(JSON.stringify(activity)).not.toContain('bob');

    // Ledger: theirs by contact and the bare send to their address, in id order, with outcome and events.
    expect(doc.messages.map((m: any) => m.id)).toEqual([p.ledgerIds.own, p.ledgerIds.bare]);
    const [own, bare] = doc.messages;
    expect(own).toMatchObject({
      type: 'email',
      to_address: 'ada@person.test',
      from_address: 'news@acme.test',
      subject: 'Welcome Ada',
      body: '<p>Hi Ada</p>',
      body_plain: 'Welcome Ada (text)',
      outcome: { status: 'sent', error: null, opens: 1, sent_at: expect.any(String), opened_at: expect.any(String) },
    });
    expect(own.events).toEqual([
      expect.objectContaining({ kind: 'open', class: 'prefetch', reason: 'apple_mpp', user_agent: 'Mozilla/5.0 (Macintosh)', at: expect.any(String) }),
      expect.objectContaining({ kind: 'click', url: 'https://acme.test/offer', class: 'human', reason: 'person', user_agent: 'Firefox/130' }),
    ]);
    expect(bare).toMatchObject({ subject: 'Your receipt', to_address: 'ADA@PERSON.TEST', events: [] });

    // Archive: theirs from the shared object (Bob's line left out), and nothing of the stray object.
    expect(doc.archived_messages.map((m: any) => m.id).sort((a: number, b: number) => a - b)).toEqual([p.archived.own, p.archived.bare]);
    const archivedOwn = doc.archived_messages.find((m: any) => m.id === p.archived.own);
    expect(archivedOwn).toMatchObject({ subject: 'Archived hello', outcome: { status: 'sent' } });
    expect(archivedOwn.events).toEqual([expect.objectContaining({ kind: 'click', url: 'https://acme.test/old', user_agent: 'OldBrowser/9' })]);

    const whole = JSON.stringify(doc);
    for (const foreign of ['bob@other.test', 'Bob Other', 'Hello Bob', 'Archived for Bob', 'BobBrowser', 'bob comment', 'bob-colour', '+15550109999', 'Stray'])
      expect(whole, foreign).not.toContain(foreign);
  });

  it('opens only the archive objects the index names for the contact', async () => {
    const p = await personWithData('xb', 'ann@person.test');
    const opened: string[] = [];
    const files = new Proxy(E.FILES, {
      get(target, prop) {
        if (prop === 'get') {
          return (key: string, ...rest: unknown[]) => {
            opened.push(key);
            return (target.get as (...args: unknown[]) => unknown)(key, ...rest);
          };
        }
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const req = new Request(`http://${p.o.org}.localhost:8787/api/v1/contact/${p.contactId}/export?format=json`, {
      headers: { host: `${p.o.org}.localhost:8787`, authorization: `Bearer ${p.o.token}` },
    });
    const res = await appFetch(req, { env: { FILES: files } });
    expect(res.status).toBe(200);
    const doc = JSON.parse(await res.text());
    expect(opened).toEqual(p.indexedKeys);
    expect(opened).not.toContain(p.strayKey);
    expect(doc.archived_messages).toHaveLength(2);
  });

  it('answers the same content as a readable, escaped html page', async () => {
    const p = await personWithData('xc', 'amy@person.test');
    await sql("UPDATE contacts SET note = '<script>alert(1)</script>' WHERE id = ?", p.contactId);
    const res = await exportOf(p.o, p.contactId, 'html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="contact-${p.contactId}-export.html"`);
    const { text: html } = await readChunks(res);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|src=/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    for (const heading of ['Contact', 'Subscriptions', 'Consent records', 'Unsubscribes', 'Suppressions', 'Activity log', 'Messages', 'Archived messages'])
      expect(html).toContain(`<h2>${heading}</h2>`);
    for (const value of [
      'Ada Person',
      'amy@person.test',
      'Early adopters',
      'teal',
      'Gold',
      'Footer form',
      'ConfirmAgent/2',
      'iphash-signup',
      'Far too many offers',
      'Asked by phone',
      p.phone,
      'Welcome Ada',
      '&lt;p&gt;Hi Ada&lt;/p&gt;',
      'https://acme.test/offer',
      'Mozilla/5.0 (Macintosh)',
      'apple_mpp',
      'Your receipt',
      'Archived hello',
      'Archived receipt',
      'OldBrowser/9',
    ])
      expect(html, value).toContain(value);
    for (const foreign of ['bob@other.test', 'Bob Other', 'Hello Bob', 'Archived for Bob', 'bob comment', 'Stray'])
      expect(html, foreign).not.toContain(foreign);
    // Each section holds its own rows: the archived messages section has the archived ones, not the ledger's.
    const archivedSection = html.slice(html.indexOf('<section id="archived_messages">'));
    expect(archivedSection).toContain('Archived hello');
    expect(archivedSection).not.toContain('Welcome Ada');
  });

  it("keeps organisations apart: A cannot export B's contact, and B's export shows none of A's rows", async () => {
    const a = await personWithData('xd', 'same@person.test');
    const b = await newOrg('xe');
    const created = await b.api('POST', '/contact', { name: 'Same Person in B', addresses: [{ type: 'email', value: 'same@person.test' }] });
    expect(created.status, created.text).toBe(201);
    const bId = created.body.data.id as number;
    const own = await ledgerMessage(b.orgId, { contactId: bId, to: 'same@person.test', subject: 'B only' });

    const cross = await exportOf(a.o, bId);
    expect(cross.status).toBe(404);
    expect((await exportOf(b, a.contactId)).status).toBe(404);

    const doc = await (await exportOf(b, bId)).json<any>();
    expect(doc.organization.id).toBe(b.orgId);
    expect(doc.messages.map((m: any) => m.id)).toEqual([own]);
    expect(doc.archived_messages).toEqual([]);
    expect(doc.consents).toEqual([]);
    expect(doc.unsubscribes).toEqual([]);
    expect(doc.suppressions).toEqual({ blacklist: [], sms_opt_outs: [], soft_bounces: [] });
    expect(doc.activity.every((row: any) => row.entity === 'contact' && row.entity_id === bId)).toBe(true);
    const whole = JSON.stringify(doc);
    for (const foreign of ['Welcome Ada', 'Your receipt', 'Archived', 'Asked by phone', 'Footer form', 'Ada Person'])
      expect(whole, foreign).not.toContain(foreign);
  });

  it('is logged, a read-only key may export (logged under its id), a send key may not, and format=xml is a 422', async () => {
    const o = await newOrg('xf');
    const created = await o.api('POST', '/contact', { name: 'Kay', addresses: [{ type: 'email', value: 'kay@person.test' }] });
    const id = created.body.data.id as number;
    const readKey = await o.api('POST', '/organization-api-key', { name: 'Reader', scope: 'read', test: false });
    const sendKey = await o.api('POST', '/organization-api-key', { name: 'Sender', scope: 'send', test: false });
    expect([readKey.status, sendKey.status]).toEqual([201, 201]);

    const byUser = await exportOf(o, id, 'html');
    expect(byUser.status).toBe(200);
    await byUser.text();
    const byKey = await exportOf(o, id, 'json', readKey.body.data.key);
    expect(byKey.status).toBe(200);
    expect((await byKey.json<any>()).contact.name).toBe('Kay');
    const refused = await exportOf(o, id, 'json', sendKey.body.data.key);
    expect(refused.status).toBe(403);
    expect((await refused.json<any>()).error.code).toBe('scope');

    const log = await o.api('GET', `/activity-log?entity=contact&entity_id=${id}&sort_by=id&sort_order=asc`);
    expect(log.status, log.text).toBe(200);
    const exports = log.body.items.filter((row: any) => row.action === 'export');
    expect(exports).toEqual([
      expect.objectContaining({ entity: 'contact', entity_id: id, field: 'format', new_value: 'html', user_id: expect.any(Number), api_key_id: null }),
      expect.objectContaining({ entity: 'contact', entity_id: id, field: 'format', new_value: 'json', user_id: null, api_key_id: readKey.body.data.id }),
    ]);

    const bad = await o.api('GET', `/contact/${id}/export?format=xml`);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('format');
    // No row for a refused or invalid request.
    expect((await sql("SELECT count(*) AS n FROM activity_log WHERE org_id = ? AND action = 'export'", o.orgId)).results[0].n).toBe(2);
  });

  it('streams: 1,200 messages arrive in several chunks and parse as one JSON document', async () => {
    const o = await newOrg('xg');
    const created = await o.api('POST', '/contact', { name: 'Many', addresses: [{ type: 'email', value: 'many@person.test' }] });
    const id = created.body.data.id as number;
    const ledger = await ledgerSql(o.orgId);
    for (let i = 0; i < 1200; i += 100) {
      await ledger
        .prepare(
          `INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, subject, body, created_at, updated_at)
           SELECT ?1, 'email', 'sent', ?2, 'news@acme.test', 'many@person.test', 'Issue ' || value, '', ?3, ?3 FROM json_each(?4)`,
        )
        .bind(o.orgId, id, new Date().toISOString(), JSON.stringify(Array.from({ length: 100 }, (_, k) => i + k)))
        .run();
    }
    // The app's own answer (not re-chunked by the runtime on the way out): its body is the export's stream.
    const res = await appFetch(
      new Request(`http://${o.org}.localhost:8787/api/v1/contact/${id}/export`, {
        headers: { host: `${o.org}.localhost:8787`, authorization: `Bearer ${o.token}` },
      }),
    );
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    const head = decoder.decode(first.value, { stream: true });
    // Written as it is read: the first chunk holds the start of the messages, not the last of them.
    expect(head.startsWith('{\n"exported_at"')).toBe(true);
    expect(head).toContain('"Issue 0"');
    expect(head).not.toContain('"Issue 1199"');
    let chunks = 1;
    let text = head;
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks += 1;
      text += decoder.decode(next.value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(3);
    const doc = JSON.parse(text);
    expect(doc.messages).toHaveLength(1200);
    const ids = doc.messages.map((m: any) => m.id);
    expect(ids).toEqual([...ids].sort((x: number, y: number) => x - y));
    expect(new Set(doc.messages.map((m: any) => m.subject)).size).toBe(1200);
  });

  it("reads every ledger generation of the organisation, the newest's messages and the first's", async () => {
    const o = await newOrg('xh');
    const created = await o.api('POST', '/contact', { name: 'Gen', addresses: [{ type: 'email', value: 'gen@person.test' }] });
    const id = created.body.data.id as number;
    const inFirst = await ledgerMessage(o.orgId, { contactId: id, to: 'gen@person.test', subject: 'In the first' });
    const second = await openNextGeneration(E, createDb(E.DB), o.orgId, 0);
    const row = await ledgerBinding(second!)
      .prepare(
        `INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, subject, body)
         VALUES (?, 'email', 'sent', NULL, 'news@acme.test', 'gen@person.test', 'In the second', '') RETURNING id`,
      )
      .bind(o.orgId)
      .first<{ id: number }>();
    const doc = await (await exportOf(o, id)).json<any>();
    // Newest generation first, each in id order.
    expect(doc.messages.map((m: any) => [m.id, m.subject])).toEqual([
      [row!.id, 'In the second'],
      [inFirst, 'In the first'],
    ]);
  });
});
