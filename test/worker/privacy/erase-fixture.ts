// A person with data of every kind an organisation keeps of them (issue 40), and someone else beside them in the same
// stores: contact, field value, tag, subscription with a form consent, an unsubscribe with a comment, a blacklist
// entry, an SMS opt-out and soft bounces of their addresses, activity-log entries, messages with tracking events and
// stream events in the ledger (young ones, and old ones the archive moves to R2 beside the other person's), an
// inline attachment, a stored send API answer, an import file with their row, kept unrecognised mail about them.
import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { KEPT_PREFIX } from '../../../src/modules/bounce/handle';
import { putOrgFile } from '../../../src/modules/files/stored-files';
import { archiveOldMessages } from '../../../src/modules/retention/archive';
import { insertContact, newOrg, type Org } from '../channel-helpers';
import { ledgerSql } from '../helpers';

const E = env as unknown as Env;
const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

export interface Person {
  id: number;
  name: string;
  email: string;
  phone: string;
}

export interface Fixture {
  o: Org;
  person: Person;
  other: Person;
  importKey: string;
  attachmentKey: string;
  keptKeys: { theirs: string; others: string };
}

/** Messages to `who` (their contact, address and name in the content), half made `old` days ago; events fired by status. */
async function messagesTo(orgId: number, who: Person, n: number, createdAt: string, extra: { send_options?: string } = {}) {
  const ledger = await ledgerSql(orgId);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = await ledger
      .prepare(
        `INSERT INTO messages (org_id, type, status, contact_id, contact_name, from_address, to_address, subject, body, body_plain, metadata,
          send_options, created_at, updated_at)
         VALUES (?, 'email', 'queued', ?, ?, 'news@example.com', ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .bind(
        orgId,
        who.id,
        who.name,
        who.email,
        `Hello ${who.name}`,
        `<p>Dear ${who.name}, your code for ${who.email}</p>`,
        `Dear ${who.name}`,
        JSON.stringify({ customer: who.email }),
        extra.send_options ?? null,
        createdAt,
        createdAt,
      )
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  const list = JSON.stringify(ids);
  // Sent (the stream records message.sent with the address), then opened by a person's browser.
  await ledger
    .prepare(`UPDATE messages SET status = 'sent', sent_at = created_at, error = ? WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(`250 ok for <${who.email}>`, list)
    .run();
  await ledger
    .prepare(
      `INSERT INTO tracking_events (id, org_id, message_id, kind, link_index, url, class, reason, method, user_agent, ip_hash, at)
       SELECT 'ev-' || value, ?1, value, 'click', 0, 'https://shop.example/?who=' || ?2, 'human', 'person', 'GET', 'Mozilla/5.0 (' || ?3 || ')', 'iphash-' || value, ?4
       FROM json_each(?5)`,
    )
    .bind(orgId, who.email, who.name, createdAt, list)
    .run();
  return ids;
}

export async function personFixture(prefix: string): Promise<Fixture> {
  const o = await newOrg(prefix);
  const stamp = Math.floor(Math.random() * 1e6);
  const person: Person = { id: 0, name: `Erin Erasable${stamp}`, email: `erin${stamp}@privacy.example`, phone: `+1555${String(stamp).padStart(7, '0')}` };
  const other: Person = { id: 0, name: `Oscar Other${stamp}`, email: `oscar${stamp}@privacy.example`, phone: `+1444${String(stamp).padStart(7, '0')}` };
  person.id = await insertContact(o.orgId, person.name, [
    { type: 'email', value: person.email },
    { type: 'phone', value: person.phone },
  ]);
  other.id = await insertContact(o.orgId, other.name, [{ type: 'email', value: other.email }]);

  // Through the API, so the activity log records their values.
  const tag = await o.api('POST', '/tag', { name: 'VIP' });
  const field = await o.api('POST', '/field', { name: 'City', alias: 'city', type: 'text' });
  const updated = await o.api('PUT', `/contact/${person.id}`, {
    name: person.name,
    note: `Met ${person.name} at the fair`,
    addresses: [
      { type: 'email', value: person.email },
      { type: 'phone', value: person.phone },
    ],
    tags: [tag.body.data.id],
    attributes: [{ field_id: field.body.data.id, value: 'Lisbon' }],
  });
  expect(updated.status, updated.text).toBe(200);

  // A subscription they signed up for through a form (consent), and one they left with a comment.
  const news = await o.api('POST', '/subscription', { name: 'News' });
  const offers = await o.api('POST', '/subscription', { name: 'Offers' });
  await env.DB.prepare(
    `INSERT INTO consents (org_id, contact_id, form_id, form_name, subscription_ids, signed_up_at, signup_user_agent, signup_ip_hash, confirmed_at)
     VALUES (?, ?, NULL, 'Footer form', ?, ?, 'Mozilla/5.0 (consent)', 'signup-ip-hash', ?)`,
  )
    .bind(o.orgId, person.id, JSON.stringify([news.body.data.id]), daysAgo(3), daysAgo(3))
    .run();
  await env.DB.prepare(`INSERT INTO unsubscribes (org_id, contact_id, subscription_id, reason, comment, source) VALUES (?, ?, ?, 'other', ?, 'page')`)
    .bind(o.orgId, person.id, offers.body.data.id, `Please stop, ${person.name} here`)
    .run();

  // Suppressions of their addresses (the blacklist through the API: logged), and the other person's.
  expect((await o.api('POST', '/blacklist', { type: 'email', value: person.email, info: 'asked' })).status).toBe(201);
  expect((await o.api('POST', '/blacklist', { type: 'email', value: other.email })).status).toBe(201);
  await env.DB.prepare(`INSERT INTO sms_opt_outs (org_id, phone, keyword) VALUES (?, ?, 'STOP')`).bind(o.orgId, person.phone).run();
  await env.DB.prepare(`INSERT INTO soft_bounces (org_id, address, count, since, last_message_id) VALUES (?, ?, 1, ?, 1)`)
    .bind(o.orgId, person.email, daysAgo(1))
    .run();

  // Messages: old ones (archived below, beside the other person's in the same objects) and young ones.
  await o.api('PUT', '/organization', { name: 'Privacy org', message_retention_days: 30 });
  await messagesTo(o.orgId, person, 3, daysAgo(45));
  await messagesTo(o.orgId, other, 3, daysAgo(45));
  await messagesTo(o.orgId, person, 2, daysAgo(75));
  await messagesTo(o.orgId, other, 2, daysAgo(75));
  await archiveOldMessages(createDb(E.DB), E);
  const attachmentKey = `orgs/${o.orgId}/messages/${crypto.randomUUID()}`;
  await E.FILES.put(attachmentKey, `receipt for ${person.email}`);
  await messagesTo(o.orgId, person, 2, daysAgo(1), { send_options: JSON.stringify({ attachments: [{ key: attachmentKey, filename: 'r.txt' }] }) });
  await messagesTo(o.orgId, other, 2, daysAgo(1));
  // A send API answer kept for its idempotency key, quoting their address.
  await (await ledgerSql(o.orgId))
    .prepare(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state, status, body, created_at, locked_until) VALUES ('k1', 'idem-1', 'h', 'done', 200, ?, ?, 0)`,
    )
    .bind(JSON.stringify({ data: { to: person.email } }), Date.now())
    .run();

  // A finished import whose file holds their row (in another case, with spaces) and the other person's.
  const importKey = `orgs/${o.orgId}/imports/${crypto.randomUUID()}.csv`;
  const nationalPhone = `555 ${person.phone.slice(5, 8)} ${person.phone.slice(8)}`;
  const csv = `name,email,phone\r\n${person.name},${person.email.toUpperCase()},${nationalPhone}\r\n${other.name},${other.email},\r\n`;
  await putOrgFile(E.FILES, createDb(E.DB), o.orgId, 'import', importKey, csv);
  await env.DB.prepare(
    `INSERT INTO imports (org_id, file_name, file_key, file_size, status, mapping, rejections) VALUES (?, 'people.csv', ?, 100, 'success', '{}', ?)`,
  )
    .bind(o.orgId, importKey, JSON.stringify([{ row: 4, reason: `Invalid e-mail: "x${person.email}x"` }]))
    .run();

  // Unrecognised mail the bounce handler kept: one about them, one not.
  const theirs = `${KEPT_PREFIX}2026-11-01/${crypto.randomUUID()}.eml`;
  const others = `${KEPT_PREFIX}2026-11-01/${crypto.randomUUID()}.eml`;
  await E.FILES.put(theirs, `From: postmaster@far.example\r\n\r\nDelivery to ${person.email} failed\r\n`, {
    customMetadata: { from: 'postmaster@far.example', to: 'bounces@relay.test' },
  });
  await E.FILES.put(others, `From: postmaster@far.example\r\n\r\nDelivery to ${other.email} failed\r\n`, {
    customMetadata: { from: 'postmaster@far.example', to: 'bounces@relay.test' },
  });

  return { o, person, other, importKey, attachmentKey, keptKeys: { theirs, others } };
}

async function gunzipText(bytes: ArrayBuffer): Promise<string> {
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
}

/** Everything the product keeps of an organisation, as text: every row of D1 naming it and of its ledgers, every R2 object under its folder. */
export async function everythingKept(orgId: number): Promise<{ d1: string; ledger: string; r2: string }> {
  const tables = (
    await env.DB.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT LIKE 'd1_%'`,
    ).all<{ name: string }>()
  ).results;
  const d1: string[] = [];
  for (const { name } of tables) {
    const rows = (await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results;
    d1.push(`${name}: ${JSON.stringify(rows)}`);
  }
  const ledger = await ledgerSql(orgId);
  const ledgerTables = (
    await ledger.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'`).all<{ name: string }>()
  ).results;
  const ledgerRows: string[] = [];
  for (const { name } of ledgerTables) ledgerRows.push(`${name}: ${JSON.stringify((await ledger.prepare(`SELECT * FROM "${name}"`).all()).results)}`);
  const r2: string[] = [];
  for (const prefix of [`orgs/${orgId}/`, KEPT_PREFIX]) {
    let cursor: string | undefined;
    do {
      const page = await E.FILES.list({ prefix, cursor, include: ['customMetadata'] });
      for (const object of page.objects) {
        const body = await (await E.FILES.get(object.key))!.arrayBuffer();
        const text = object.key.endsWith('.gz') ? await gunzipText(body) : new TextDecoder().decode(body);
        r2.push(`${object.key} ${JSON.stringify(object.customMetadata)}: ${text}`);
      }
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return { d1: d1.join('\n'), ledger: ledgerRows.join('\n'), r2: r2.join('\n') };
}
