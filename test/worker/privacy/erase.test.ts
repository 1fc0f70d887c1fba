// Erasing a person (issue 40) on the Workers runtime: the typed confirmation, then nothing of them left anywhere the
// product keeps (every table of D1 and of the organisation's ledger, every R2 object of the organisation and the kept
// mail searched for their address, phone and name), counters unchanged, the other person's data whole, the archive
// objects without them untouched, another organisation untouched, and a cut-off erasure finished by the cron.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { addressDigest } from '../../../src/modules/privacy/address-digest';
import { eraseInD1 } from '../../../src/modules/privacy/erase/d1-part';
import { resumeErasures } from '../../../src/modules/privacy/erase/resume';
import { insertContact, newOrg } from '../channel-helpers';
import { ledgerSql } from '../helpers';
import { everythingKept, personFixture, type Fixture } from './erase-fixture';

const E = env as unknown as Env;

/** What must not change: the organisation's message and event counts and its figures (not the contact count). */
async function counters(orgId: number) {
  const ledger = await ledgerSql(orgId);
  const messages = await ledger.prepare(`SELECT count(*) AS n, sum(status = 'sent') AS sent, sum(clicks_total) AS clicks FROM messages`).first();
  const events = await ledger.prepare('SELECT count(*) AS n, sum(class = ?) AS human FROM tracking_events').bind('human').first();
  // The stream's message events (the erasure adds contact.deleted, which is the point of it).
  const stream = await ledger.prepare(`SELECT count(*) AS n FROM events WHERE type LIKE 'message.%'`).first();
  const archived = await env.DB.prepare('SELECT count(*) AS objects, sum(messages) AS messages FROM message_archives WHERE org_id = ?').bind(orgId).first();
  return { messages, events, stream, archived };
}

const mentions = (text: string, f: Fixture) =>
  [f.person.email, f.person.name, f.person.phone, f.person.phone.slice(2)].filter((needle) => text.toLowerCase().includes(needle.toLowerCase()));

const archiveEtags = async (orgId: number) => new Map((await E.FILES.list({ prefix: `orgs/${orgId}/archive/` })).objects.map((o) => [o.key, o.etag] as const));

describe('erasing a person', () => {
  it('refuses a confirmation that is not one of their addresses, and changes nothing', async () => {
    const f = await personFixture('ea');
    const before = await everythingKept(f.o.orgId);
    for (const confirm of [f.other.email, 'erin', '']) {
      const res = await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm });
      expect(res.status, res.text).toBe(422);
      expect(res.body.error.fields.confirm).toHaveLength(1);
    }
    expect((await f.o.api('POST', `/contact/${f.person.id}/erase`, {})).status).toBe(422);
    expect((await f.o.api('GET', `/contact/${f.person.id}`)).status).toBe(200);
    const after = await everythingKept(f.o.orgId);
    expect(after.ledger).toBe(before.ledger);
    expect(after.r2).toBe(before.r2);
  });

  it('leaves nothing of them in D1, the ledger or R2, keeps the counters and the other person whole', async () => {
    const f = await personFixture('eb');
    const before = await counters(f.o.orgId);
    const kept = await everythingKept(f.o.orgId);
    // The fixture put them everywhere (else the search below would prove nothing).
    expect(mentions(kept.d1, f)).toHaveLength(4);
    expect(mentions(kept.ledger, f)).toEqual(expect.arrayContaining([f.person.email, f.person.name]));
    expect(kept.r2).toContain(f.person.email);
    const etags = await archiveEtags(f.o.orgId);
    const archivedBefore = await env.DB.prepare('SELECT count(*) AS n FROM message_archives WHERE org_id = ?').bind(f.o.orgId).first<{ n: number }>();

    const res = await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm: ` ${f.person.email.toUpperCase()} ` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      contact_id: f.person.id,
      state: 'done',
      messages: 2,
      archived_messages: 5,
      archive_objects_total: archivedBefore!.n,
      import_files_rewritten: 1,
      kept_mails_deleted: 1,
      // The blacklist entry and the opt-out (lifting the blacklist entry resets its soft bounces: migration 0023).
      suppressions_removed: 2,
    });
    expect(res.body.data.archive_objects_rewritten).toBeGreaterThan(0);
    expect(res.body.data.activity_entries_cleared).toBeGreaterThan(0);

    const after = await everythingKept(f.o.orgId);
    expect(mentions(after.d1, f)).toEqual([]);
    expect(mentions(after.ledger, f)).toEqual([]);
    expect(mentions(after.r2, f)).toEqual([]);
    // The other person's data is all there.
    for (const text of [after.ledger, after.r2]) expect(text).toContain(f.other.email);
    expect(after.r2).toContain(f.other.name);
    expect(await E.FILES.head(f.keptKeys.others)).not.toBeNull();
    expect(await E.FILES.head(f.attachmentKey)).toBeNull();
    // Counters: the same messages, events and figures; only the archive objects holding them were rewritten.
    expect(await counters(f.o.orgId)).toEqual(before);
    const rewritten = [...(await archiveEtags(f.o.orgId))].filter(([key, etag]) => etags.get(key) !== etag).length;
    expect(rewritten).toBe(res.body.data.archive_objects_rewritten);
    // The archive index no longer names them; the do-not-re-add list holds their addresses' digests only.
    expect(await (await ledgerSql(f.o.orgId)).prepare(`SELECT count(*) AS n FROM archive_holders WHERE holder = ?`).bind(`c:${f.person.id}`).first('n')).toBe(
      0,
    );
    const listed = await env.DB.prepare('SELECT digest FROM erased_addresses WHERE org_id = ? ORDER BY digest').bind(f.o.orgId).all<{ digest: string }>();
    const digests = [await addressDigest(E, f.o.orgId, f.person.email), await addressDigest(E, f.o.orgId, f.person.phone)].sort();
    expect(listed.results.map((r) => r.digest)).toEqual(digests);
    // The console no longer finds them, and the log tells of the erasure without personal data.
    expect((await f.o.api('GET', `/contact/${f.person.id}`)).status).toBe(404);
    const found = await f.o.api('GET', `/message?search=${encodeURIComponent(f.person.email)}`);
    expect(found.body.data ?? []).toEqual([]);
    const log = await env.DB.prepare(`SELECT * FROM activity_log WHERE org_id = ? AND action = 'erase'`).bind(f.o.orgId).all();
    expect(log.results).toMatchObject([{ entity: 'contact', entity_id: f.person.id, previous_value: null, new_value: null }]);
    // The stream's contact.deleted names the id only.
    const events = await f.o.api('GET', '/events?types=contact.deleted');
    const deleted = events.body.data.filter((e: any) => e.data.contact.id === f.person.id);
    expect(deleted).toMatchObject([{ data: { contact: { id: f.person.id, name: null, emails: [], phones: [] }, erased: true } }]);
    // Neither the API nor the console can add them again (the person's own form sign-up can: erased-list.test.ts).
    const again = await f.o.api('POST', '/contact', { name: 'Again', addresses: [{ type: 'email', value: f.person.email }] });
    expect(again.status, again.text).toBe(422);
    expect(Object.keys(again.body.error.fields)).toEqual(['addresses.0.value']);
    // Erasing again: the contact is gone.
    expect((await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm: f.person.email })).status).toBe(404);
  });

  it('reaches only its own organisation: another one with the same person keeps everything', async () => {
    const f = await personFixture('ec');
    const b = await newOrg('ed');
    const theirContactInB = await insertContact(b.orgId, f.person.name, [{ type: 'email', value: f.person.email }]);
    await (await ledgerSql(b.orgId))
      .prepare(
        `INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, subject, body) VALUES (?, 'email', 'sent', ?, 'b@example.com', ?, 'Hi', 'Hi')`,
      )
      .bind(b.orgId, theirContactInB, f.person.email)
      .run();
    const bBefore = await everythingKept(b.orgId);
    // A cannot erase B's contact, nor B A's.
    expect((await f.o.api('POST', `/contact/${theirContactInB}/erase`, { confirm: f.person.email })).status).toBe(404);
    expect((await b.api('POST', `/contact/${f.person.id}/erase`, { confirm: f.person.email })).status).toBe(404);
    expect((await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm: f.person.email })).status).toBe(200);
    const bAfter = await everythingKept(b.orgId);
    expect(bAfter.ledger).toBe(bBefore.ledger);
    expect((await b.api('GET', `/contact/${theirContactInB}`)).status).toBe(200);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM erased_addresses WHERE org_id = ?').bind(b.orgId).first('n')).toBe(0);
  });

  it('waits while an import runs or a message to them is on its way', async () => {
    const f = await personFixture('ee');
    const running = await env.DB.prepare(
      `INSERT INTO imports (org_id, file_name, file_key, status, mapping) VALUES (?, 'x.csv', 'k', 'processing', '{}') RETURNING id`,
    )
      .bind(f.o.orgId)
      .first<{ id: number }>();
    let res = await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm: f.person.email });
    expect(res.status, res.text).toBe(409);
    await env.DB.prepare(`UPDATE imports SET status = 'success' WHERE id = ?`).bind(running!.id).run();
    await (await ledgerSql(f.o.orgId))
      .prepare(
        `INSERT INTO messages (org_id, type, status, contact_id, from_address, to_address, body) VALUES (?, 'email', 'queued', ?, 'a@example.com', ?, 'x')`,
      )
      .bind(f.o.orgId, f.person.id, f.person.email)
      .run();
    res = await f.o.api('POST', `/contact/${f.person.id}/erase`, { confirm: f.person.phone });
    expect(res.status, res.text).toBe(409);
    expect((await f.o.api('GET', `/contact/${f.person.id}`)).status).toBe(200);
  });

  it('is finished by the cron when its request was cut off after the contact went', async () => {
    const f = await personFixture('ef');
    const addresses = [
      { type: 'email' as const, value: f.person.email },
      { type: 'phone' as const, value: f.person.phone },
    ];
    const subject = { orgId: f.o.orgId, contactId: f.person.id, name: f.person.name, addresses };
    const { erasureId } = await eraseInD1(createDb(E.DB), E, subject, { userId: null, apiKeyId: null, client: { browser: null, os: null, device: null } });
    // The request died here: the contact is gone, the copies are not yet, and the journal holds what to look for.
    expect(mentions((await everythingKept(f.o.orgId)).ledger, f).length).toBeGreaterThan(0);
    expect(await resumeErasures(createDb(E.DB), E)).toBe(0); // too young: its request may still be running
    expect(await resumeErasures(createDb(E.DB), E, Date.now() + 11 * 60_000)).toBe(1);
    const after = await everythingKept(f.o.orgId);
    expect(mentions(after.d1, f)).toEqual([]);
    expect(mentions(after.ledger, f)).toEqual([]);
    expect(mentions(after.r2, f)).toEqual([]);
    const journal = await env.DB.prepare('SELECT state, subject, summary FROM erasures WHERE id = ?').bind(erasureId).first<any>();
    expect(journal).toMatchObject({ state: 'done', subject: null });
    expect(JSON.parse(journal.summary)).toMatchObject({ messages: 2, archived_messages: 5 });
    expect(await resumeErasures(createDb(E.DB), E, Date.now() + 11 * 60_000)).toBe(0);
  });
});
