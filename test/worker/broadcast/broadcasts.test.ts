// Broadcast rules through the real API on the Workers runtime: the form rules of spec 5, the recipients preview
// and its skipped reasons, the actions as conditional writes (a second click is a 409), tenancy, the demo lock,
// and a run driven step by step (the runner's alarm with its send queue recorded, then the real consumer with a
// recording transport), so every count can be checked.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { createDb } from '../../../src/db/client';
import { recipientPage, type RecipientRule, walkTagLookup } from '../../../src/modules/broadcast/recipients';
import type { TagLookup } from '../../../src/modules/contact/filters';
import { SKIP_REASONS } from '../../../src/shared/contracts/broadcast';
import { TEMPLATE_MESSAGES } from '../../../src/shared/contracts/template';
import { SendChannels } from '../../../src/modules/sending/channels';
import { gateLedger, holdIntegration, reserveSends } from '../../../src/modules/sending/send-gate';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import { DEMO_LOGIN, DEMO_PASSWORD } from '../../../src/modules/demo/demo-info';
import { createTemplate, insertContact } from '../channel-helpers';
import { call, ledgerSql, signIn } from '../helpers';
import { deliverAll, E, IN_AN_HOUR, runAlarm, setup, startable } from './run-helpers';

describe('creating a broadcast', () => {
  it('answers the spec 5 messages and stores nothing when the form is wrong', async () => {
    const { o, body, ch, text } = await setup();
    let res = await o.api('POST', '/broadcast', {});
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toMatchObject({
      name: ['This field is required'],
      sender_id: ['This field is required'],
      template_id: ['This field is required'],
    });
    res = await o.api('POST', '/broadcast', body({ subscription_id: undefined }));
    expect(res.body.error.fields.subscription_id).toEqual(['This field is required']);
    res = await o.api('POST', '/broadcast', body({ delayed_at: '2020-01-01T00:00:00Z' }));
    expect(res.body.error.fields.delayed_at).toEqual(['The scheduled time cannot be in the past']);
    res = await o.api('POST', '/broadcast', body({ sender_id: ch.phone.id }));
    expect(res.body.error.fields.sender_id).toEqual(['Choose an email sender']);
    res = await o.api('POST', '/broadcast', body({ template_id: text.id }));
    expect(res.body.error.fields.template_id).toEqual(['Email broadcasts send html or email templates']);
    res = await o.api('POST', '/broadcast', body({ contacts: { filter: { address: 'nobody-here' } } }));
    expect(res.body.error.fields.contacts).toEqual(['No contact matches the recipients filter']);
    res = await o.api('POST', '/broadcast', body({ sleep: -1 }));
    expect(res.status).toBe(422);
    res = await o.api('POST', '/broadcast', 'not json at all');
    expect(res.status).toBeLessThan(500);
    expect((await o.api('GET', '/broadcast')).body.meta.total).toBe(0);
  });

  it('creates an SMS broadcast without a subscription when do_not_unsubscribe is on, scheduled as waiting', async () => {
    const { o, body, ch, text } = await setup();
    const at = IN_AN_HOUR();
    const res = await o.api(
      'POST',
      '/broadcast',
      body({ type: 'phone', sender_id: ch.phone.id, template_id: text.id, subscription_id: undefined, do_not_unsubscribe: true, delayed_at: at }),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'waiting',
      type: 'phone',
      subscription_id: null,
      do_not_unsubscribe: true,
      immediate: false,
      delayed_at: at,
      actions: ['cancel'],
    });
  });

  it('previews the recipients with the address each gets and why some are skipped', async () => {
    const { o, subscription, tag, people } = await setup();
    await o.api('POST', '/blacklist', { type: 'email', value: 'dan@example.com' });
    await env.DB.prepare('INSERT INTO unsubscribes (org_id, contact_id, subscription_id) VALUES (?, ?, ?)').bind(o.orgId, people.cat, subscription.id).run();
    const preview = (skip: boolean) =>
      o.api('POST', '/broadcast/preview', {
        type: 'email',
        subscription_id: subscription.id,
        contacts: { filter: { tags: [tag.id], skip_unsubscribed: skip } },
      });
    const res = await preview(true);
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.skipped).toBe(3);
    const reasons = Object.fromEntries(res.body.data.sample.map((s: { name: string; skipped_reason: string | null }) => [s.name, s.skipped_reason]));
    expect(reasons).toEqual({
      Ann: null,
      Bob: 'The contact has no email address',
      Cat: 'The contact unsubscribed from this subscription',
      Dan: 'The address is on the blacklist',
    });
    expect((await preview(false)).body.data.skipped).toBe(2);
  });
});

describe("the engine's walk over a tag", () => {
  it('finds the same recipients, with the same reasons, whether it reads the members into a list or looks each contact up', async () => {
    const { o, subscription, tag, people } = await setup();
    await o.api('POST', '/blacklist', { type: 'email', value: 'dan@example.com' });
    await env.DB.prepare('INSERT INTO unsubscribes (org_id, contact_id, subscription_id) VALUES (?, ?, ?)').bind(o.orgId, people.cat, subscription.id).run();
    // More members, a second tag, contacts of the organisation without the tags, and another organisation's contacts
    // in between (contact ids are platform-wide).
    const other = await setup();
    const second = (await o.api('POST', '/tag', { name: 'Second' })).body.data;
    for (let i = 0; i < 30; i++) {
      const id = await insertContact(o.orgId, `M${i}`, i % 7 === 0 ? [] : [{ type: 'email', value: `m${i}@example.com` }]);
      if (i % 3 !== 0)
        await env.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)')
          .bind(o.orgId, id, i % 2 ? tag.id : second.id)
          .run();
      await insertContact(other.o.orgId, `Other ${i}`, [{ type: 'email', value: `o${i}@example.com` }]);
    }
    const rule: RecipientRule = {
      orgId: o.orgId,
      type: 'email',
      recipients: { filter: { tags: [tag.id, second.id] } },
      subscriptionId: subscription.id,
      skipUnsubscribed: true,
    };
    const walk = async (lookup: TagLookup) => {
      const seen: unknown[] = [];
      for (let after = 0; ; ) {
        const page = await createDb(env.DB).all<{ id: number; address: string | null; reason: string | null }>(recipientPage(rule, after, null, 4, lookup));
        if (page.length === 0) return seen;
        seen.push(...page);
        after = page[page.length - 1].id;
      }
    };
    const listed = await walk('list');
    expect(listed).toHaveLength(4 + 20);
    expect(listed.filter((r) => (r as { reason: string | null }).reason !== null)).toHaveLength(3 + 3);
    expect(await walk('each')).toEqual(listed);
    // Each contact looked up by its own tags (the primary key), never a list of every member.
    const plan = (lookup: TagLookup) => {
      const q = new SQLiteSyncDialect().sqlToQuery(recipientPage(rule, 0, null, 4, lookup));
      return env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>();
    };
    const each = (await plan('each')).results.map((r) => r.detail).join('\n');
    expect(each).toMatch(/SEARCH contact_tags (EXISTS )?USING (COVERING )?INDEX sqlite_autoindex_contact_tags_1 \(contact_id=\? AND tag_id=\?\)/);
    expect(each).not.toMatch(/LIST SUBQUERY[^\n]*\n[^\n]*contact_tags/);
  });

  it('looks each contact up once the members are many against the organisation (members squared over page x contacts)', () => {
    expect(walkTagLookup(1_000_000, 1_000_000, 1000)).toBe('each');
    expect(walkTagLookup(40_000, 1_000_000, 1000)).toBe('each');
    expect(walkTagLookup(30_000, 1_000_000, 1000)).toBe('list');
    expect(walkTagLookup(200, 20_000, 1000)).toBe('list');
  });
});

describe('a broadcast run, step by step', () => {
  it('writes one message per recipient (skipped ones with their reason), sends the rest once, and finishes with counts that add up', async () => {
    const { o, body, subscription, people } = await setup();
    await env.DB.prepare('INSERT INTO unsubscribes (org_id, contact_id, subscription_id) VALUES (?, ?, ?)').bind(o.orgId, people.cat, subscription.id).run();
    const id = await startable(o, body());
    const queued = await runAlarm(o, id);
    expect(queued.flatMap((q) => q.ids)).toHaveLength(2); // Ann and Dan
    // A contact created after the start is not a recipient; editing the template changes nothing underway.
    const late = await insertContact(o.orgId, 'Late', [{ type: 'email', value: 'late@example.com' }]);
    await env.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) SELECT org_id, ?, tag_id FROM contact_tags WHERE contact_id = ?')
      .bind(late, people.ann)
      .run();
    await env.DB.prepare("UPDATE templates SET subject = 'Changed' WHERE org_id = ?").bind(o.orgId).run();
    expect(await runAlarm(o, id)).toEqual([]); // the same alarm again: nothing new

    const rec = await deliverAll([...queued, ...queued]);
    expect(rec.sent.map((m) => m.to).sort()).toEqual(['ann@example.com', 'dan@example.com']);
    expect(rec.sent.map((m) => m.subject).sort()).toEqual(['Hi Ann', 'Hi Dan']);
    expect(rec.sent[0].headers?.['List-Unsubscribe']).toMatch(/^<http:\/\/.+\/unsubscribe\?m=/);

    const b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'finished', total: 4, sent: 2, failed: 0, skipped: 2, recipients_final: true });
    const recipients = (await o.api('GET', `/broadcast/${id}/recipients?page_size=10`)).body;
    expect(recipients.meta.total).toBe(4);
    const byName = Object.fromEntries(
      recipients.items.map((r: { contact_name: string; status: string; reason: string | null; address: string }) => [
        r.contact_name,
        [r.status, r.address, r.reason],
      ]),
    );
    expect(byName).toEqual({
      Ann: ['sent', 'ann@example.com', null],
      Bob: ['skipped', '', 'The contact has no email address'],
      Cat: ['skipped', 'cat@example.com', 'The contact unsubscribed from this subscription'],
      Dan: ['sent', 'dan@example.com', null],
    });
    expect((await o.api('GET', `/broadcast/${id}/recipients?status=skipped`)).body.meta.total).toBe(2);
    expect((await o.api('GET', `/broadcast/${id}/recipients?search=dan`)).body.meta.total).toBe(1);

    // The message list filters by broadcast; a message's content is rendered again from the frozen template.
    const list = (await o.api('GET', `/message?broadcast_id=${id}&status=sent`)).body;
    expect(list.meta.total).toBe(2);
    const message = (await o.api('GET', `/message/${list.items[0].id}`)).body.data;
    expect(message).toMatchObject({ html: true, broadcast_id: id });
    expect(message.body).toMatch(/<p>Hello (Ann|Dan)<\/p>/);
  });

  it('pauses (nothing more is claimed), resumes, and retries only the retryable failures', async () => {
    const { o, body } = await setup();
    const id = await startable(o, body());
    const queued = await runAlarm(o, id);
    expect((await o.api('POST', `/broadcast/${id}/pause`)).body.data.status).toBe('paused');
    expect((await o.api('POST', `/broadcast/${id}/pause`)).status).toBe(409);
    expect((await deliverAll(queued)).sent).toHaveLength(0);

    expect((await o.api('POST', `/broadcast/${id}/resume`)).body.data.status).toBe('sending');
    // Cat's mailbox fails for good, Dan's server says "try later" until the attempts run out.
    const results = (to: string) =>
      to.startsWith('cat')
        ? { ok: false as const, retryable: false, error: '550 no such user' }
        : to.startsWith('dan')
          ? { ok: false as const, retryable: true, error: 'timeout' }
          : { ok: true as const, externalId: 'x' };
    const ch = new SendChannels(E, {
      openTransport: async () => ({
        send: async (m) => results(m.to),
        sendMany: async (ms) => ms.map((m) => results(m.to)),
        close: async () => {},
      }),
    });
    for (let attempt = 1; attempt <= 6; attempt++) for (const q of queued) await deliverBatch(E, q, attempt, ch).catch(() => {});
    await ch.close();
    let b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'finished', sent: 1, failed: 2, skipped: 1, actions: ['retry-failed'] });

    const retried = await o.api('POST', `/broadcast/${id}/retry-failed`);
    expect(retried.body.data).toMatchObject({ status: 'sending', failed: 1 });
    const again = await deliverAll(await runAlarm(o, id));
    expect(again.sent.map((m) => m.to)).toEqual(['dan@example.com']);
    b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'finished', sent: 2, failed: 1, skipped: 1 });
    expect((await o.api('POST', `/broadcast/${id}/retry-failed`)).status).toBe(409); // only a permanent failure is left
  });

  it('cancels a scheduled and a sending broadcast: what did not go out is skipped, and a second cancel is a 409', async () => {
    const { o, body } = await setup();
    const waiting = (await o.api('POST', '/broadcast', body({ delayed_at: IN_AN_HOUR() }))).body.data.id;
    const [first, second] = await Promise.all([o.api('POST', `/broadcast/${waiting}/cancel`), o.api('POST', `/broadcast/${waiting}/cancel`)]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);

    const id = await startable(o, body());
    const queued = await runAlarm(o, id);
    expect((await o.api('POST', `/broadcast/${id}/cancel`)).body.data.status).toBe('cancelled');
    await runAlarm(o, id);
    expect((await deliverAll(queued)).sent).toHaveLength(0);
    const b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'cancelled', sent: 0, total: 4 });
    expect(b.skipped).toBe(4);
    expect(b.finished_at).toBeTruthy();
    expect((await o.api('GET', `/broadcast/${id}/recipients?status=skipped`)).body.items[0].reason).toMatch(/cancelled|no email/);
  });

  it('never mails a subject the user did not write: a template without one is refused at creation, and pauses a broadcast at its start', async () => {
    const { o, body } = await setup('ns');
    const bare = await createTemplate(o, { type: 'html', name: 'Internal name', body: '<p>Hi</p>' });
    const refused = await o.api('POST', '/broadcast', body({ template_id: bare.id }));
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields).toEqual({ template_id: [TEMPLATE_MESSAGES.noSubject] });
    const titled = await createTemplate(o, { type: 'html', name: 'Internal name 2', subject: 'News for {{ contact.name }}', body: '<p>Hi</p>' });
    const id = await startable(o, body({ template_id: titled.id }));
    // The subject removed before the start: the broadcast pauses with the reason, nothing is queued.
    expect((await o.api('PATCH', `/template/${titled.id}`, { subject: null })).status).toBe(200);
    expect(await runAlarm(o, id)).toEqual([]);
    expect((await o.api('GET', `/broadcast/${id}`)).body.data).toMatchObject({ status: 'paused', paused_reason: TEMPLATE_MESSAGES.noSubject });
  });

  it('knows its whole recipient total from the start, and a cancel accounts for every recipient, the ones never reached included', async () => {
    const { o, body, tag } = await setup('pt');
    // 1,200 more tagged contacts: more than the runner's page, so a paced broadcast has written only its first page.
    await env.DB.prepare(`INSERT INTO contacts (org_id, name) SELECT ?1, 'Bulk ' || value FROM json_each(?2)`)
      .bind(o.orgId, JSON.stringify(Array.from({ length: 1200 }, (_, i) => i)))
      .run();
    await env.DB.prepare(
      `INSERT INTO contact_addresses (org_id, contact_id, type, value, position) SELECT org_id, id, 'email', 'bulk' || id || '@example.com', 0 FROM contacts WHERE org_id = ?1 AND name LIKE 'Bulk %'`,
    )
      .bind(o.orgId)
      .run();
    await env.DB.prepare(`INSERT INTO contact_tags (org_id, contact_id, tag_id) SELECT org_id, id, ?2 FROM contacts WHERE org_id = ?1 AND name LIKE 'Bulk %'`)
      .bind(o.orgId, tag.id)
      .run();
    const id = await startable(o, body({ sleep: 1 }));
    const queued = await runAlarm(o, id);
    expect(queued.flatMap((q) => q.ids)).toHaveLength(1);
    const rows = async () => (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages WHERE broadcast_id = ?').bind(id).first<number>('n');
    expect(await rows()).toBe(1000);
    let b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'sending', total: 1204, recipients_final: false });
    // One message every second: the expected finish counts every recipient, not the first page.
    expect(Date.parse(b.expected_finish_at) - Date.now()).toBeGreaterThan(1190_000);
    expect((await o.api('GET', '/broadcast')).body.items.find((x: { id: number }) => x.id === id).total).toBe(1204);

    expect((await deliverAll(queued)).sent).toHaveLength(1);
    expect((await o.api('POST', `/broadcast/${id}/cancel`)).body.data.status).toBe('cancelled');
    for (let i = 0; i < 5 && !(await o.api('GET', `/broadcast/${id}`)).body.data.finished_at; i++) await runAlarm(o, id);
    b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b).toMatchObject({ status: 'cancelled', total: 1204, recipients_final: true, sent: 1, failed: 0 });
    expect(b.sent + b.failed + b.skipped).toBe(1204);
    expect(await rows()).toBe(1204);
    const recipients = await o.api('GET', `/broadcast/${id}/recipients?status=skipped&page_size=100`);
    expect(recipients.body.meta.total).toBe(b.skipped);
    // Bob has no email address: his own reason stays; the others were cancelled.
    const reasons = await (await ledgerSql(o.orgId))
      .prepare('SELECT error AS reason, count(*) AS n FROM messages WHERE broadcast_id = ? AND status = ? GROUP BY error ORDER BY error')
      .bind(id, 'skipped')
      .all<{ reason: string; n: number }>();
    expect(reasons.results.reduce((sum, r) => sum + r.n, 0)).toBe(1203);
    expect(reasons.results.map((r) => r.reason)).toEqual(expect.arrayContaining([SKIP_REASONS.cancelled]));
  });

  it('paces a broadcast with sleep: one message per alarm, the next one sleep seconds later', async () => {
    const { o, body } = await setup();
    const id = await startable(o, body({ sleep: 30 }));
    const before = Date.now();
    let next = 0;
    const first = await runAlarm(o, id, async (state) => {
      next = (await state.storage.getAlarm()) ?? 0;
    });
    expect(first.flatMap((q) => q.ids)).toHaveLength(1);
    expect(next).toBeGreaterThanOrEqual(before + 30_000);
    const second = await runAlarm(o, id);
    expect(second.flatMap((q) => q.ids)).toHaveLength(1);
    expect(second[0].ids[0]).toBeGreaterThan(first[0].ids[0]);
    const b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(Date.parse(b.expected_finish_at)).toBeGreaterThan(before + 29_000);
  });
});

describe('tenancy and the demo', () => {
  it("another organisation's broadcast, message, template, sender, subscription, contact and tag are not found and change nothing", async () => {
    const a = await setup('ta');
    const b = await setup('tb');
    const theirs = await startable(b.o, b.body());
    for (const [method, path] of [
      ['GET', `/broadcast/${theirs}`],
      ['GET', `/broadcast/${theirs}/recipients`],
      ['POST', `/broadcast/${theirs}/pause`],
      ['POST', `/broadcast/${theirs}/cancel`],
    ] as const) {
      expect((await a.o.api(method, path)).status, `${method} ${path}`).toBe(404);
    }
    expect((await a.o.api('GET', '/broadcast')).body.meta.total).toBe(0);
    const res = await a.o.api(
      'POST',
      '/broadcast',
      a.body({
        sender_id: b.ch.email.id,
        template_id: b.email.id,
        subscription_id: b.subscription.id,
        contacts: { filter: { tags: [b.tag.id], ids: [b.people.ann] } },
      }),
    );
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.fields).sort()).toEqual(['contacts.filter.ids', 'contacts.filter.tags', 'sender_id', 'subscription_id', 'template_id']);
    expect((await a.o.api('GET', '/broadcast')).body.meta.total).toBe(0);
    expect((await b.o.api('GET', `/broadcast/${theirs}`)).body.data.status).toBe('queued');
  });

  it('the shared demo lists broadcasts and previews recipients (creating and acting are locked: test/worker/demo)', async () => {
    const token = (await signIn('demo', DEMO_LOGIN, DEMO_PASSWORD)).access_token;
    const list = await call('demo', '/api/v1/broadcast', { token });
    expect(list.status).toBe(200);
    const preview = await call('demo', '/api/v1/broadcast/preview', { method: 'POST', token, json: { type: 'email', contacts: { filter: {} } } });
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { data: { total: number } }).data.total).toBeGreaterThan(0);
  });
});

describe('the send limits of an integration', () => {
  it('reserves sends at the integration rate: the next batch waits its turn, a far one is refused and retried later', async () => {
    const { o, ch } = await setup('gate');
    const db = createDb(E.DB);
    expect((await o.api('PATCH', `/integration/${ch.smtp.id}`, { max_rate: 10 })).body.data.max_rate).toBe(10);
    const integration = { id: ch.smtp.id, maxRate: 10, heldUntil: 0, throttleLevel: 0 };
    const gate = await gateLedger(E, db, o.orgId);
    const now = Date.now();
    expect(await reserveSends(gate, integration, 10, 'bulk', now)).toEqual({ granted: true, waitMs: 0 });
    // Ten more at 10 per second start a second later; 200 more would start beyond the wait a consumer accepts.
    expect(await reserveSends(gate, integration, 10, 'bulk', now)).toEqual({ granted: true, waitMs: 1000 });
    const far = await reserveSends(gate, integration, 250, 'bulk', now);
    expect(far).toMatchObject({ granted: true });
    const refused = await reserveSends(gate, integration, 10, 'bulk', now);
    expect(refused.granted).toBe(false);
    // A provider's "try later" holds the integration, longer each time it repeats, and the hold is copied onto its row.
    const first = await holdIntegration(gate, db, ch.smtp.id, now);
    const second = await holdIntegration(gate, db, ch.smtp.id, now);
    expect(first - now).toBe(2000);
    expect(second - now).toBe(4000);
    const row = await E.DB.prepare('SELECT held_until, throttle_level FROM integrations WHERE id = ?').bind(ch.smtp.id).first();
    expect(row).toEqual({ held_until: now + 4000, throttle_level: 2 });
  });

  it('pauses a broadcast whose server cannot be reached for three batches in a row, with the reason', async () => {
    const { o, body } = await setup('down');
    const id = await startable(o, body());
    const [batch] = await runAlarm(o, id);
    const unreachable = { ok: false as const, retryable: true, error: 'The connection to 127.0.0.1:2525 was refused', cause: 'unreachable' as const };
    const ch = new SendChannels(E, {
      openTransport: async () => ({ send: async () => unreachable, sendMany: async (ms) => ms.map(() => unreachable), close: async () => {} }),
    });
    for (let attempt = 1; attempt <= 4; attempt++) await deliverBatch(E, batch, attempt, ch).catch(() => {});
    await ch.close();
    const b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    expect(b.status).toBe('paused');
    expect(b.paused_reason).toMatch(/could not be reached for 3 batches in a row.*refused/);
    expect(b.failed).toBe(0); // nobody burnt as failed: the messages wait for the resume
    expect(b.actions).toEqual(['resume', 'cancel']);
  });
});
