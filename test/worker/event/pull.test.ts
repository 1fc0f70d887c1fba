// GET /api/v1/events (src/modules/event): the organisation's stream, oldest first, paged with an opaque cursor,
// filtered by type; bad input is a 422; an organisation reads only its own; D1's outbox absorbed once.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { announceEvents } from '../../../src/modules/event/announce';
import { absorbOverdueEvents, pruneOldEvents } from '../../../src/modules/event/housekeeping';
import { EVENT_KEEP_MS } from '../../../src/shared/contracts/webhook';
import { ledgerSql } from '../helpers';
import { encodeCursor } from '../../../src/modules/event/cursor';
import { api, expect422, newSession } from '../api-helpers';
import { newKey, withKey } from '../api-key/helpers';
import { allEvents, outboxCount, outboxRow, pull } from './helpers';

const resubscribed = (contactId: number) => ({ contact_id: contactId, subscription_id: 1 });

describe('the pull API', () => {
  it('pages oldest first with the cursor, and the last page says there is no more', async () => {
    const s = await newSession('evp');
    const ids = [];
    for (let i = 1; i <= 5; i++) ids.push(await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(i)));
    const first = await pull(s, '?limit=2');
    expect(first.data.map((e) => e.id)).toEqual(ids.slice(0, 2));
    expect(first.has_more).toBe(true);
    expect(first.data[0]).toEqual({
      id: ids[0],
      type: 'contact.resubscribed',
      version: 1,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      data: resubscribed(1),
    });
    const second = await pull(s, `?limit=2&after=${first.next_cursor}`);
    expect(second.data.map((e) => e.id)).toEqual(ids.slice(2, 4));
    const third = await pull(s, `?limit=2&after=${second.next_cursor}`);
    expect(third.data.map((e) => e.id)).toEqual([ids[4]]);
    expect(third.has_more).toBe(false);
    // The last cursor polls: nothing now, the next event when it comes.
    expect((await pull(s, `?after=${third.next_cursor}`)).data).toEqual([]);
    const later = await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(6));
    expect((await pull(s, `?after=${third.next_cursor}`)).data.map((e) => e.id)).toEqual([later]);
    // Default page: all of them.
    expect((await pull(s)).data).toHaveLength(6);
  });

  it('filters by type, the cursor moving past what the page shows', async () => {
    const s = await newSession('evt');
    const a = await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1));
    await outboxRow(s.orgId, 'sms.opted_in', { phone: '+15550001', contact_id: null });
    const c = await outboxRow(s.orgId, 'contact.unsuppressed', { address: { type: 'email', value: 'x@y.test' }, contact_id: null });
    const page = await pull(s, '?types=contact.resubscribed,contact.unsuppressed&limit=1');
    expect(page.data.map((e) => e.id)).toEqual([a]);
    const next = await pull(s, `?types=contact.resubscribed,contact.unsuppressed&after=${page.next_cursor}`);
    expect(next.data.map((e) => e.id)).toEqual([c]);
    expect((await pull(s, '?types=sms.opted_in')).data.map((e) => e.type)).toEqual(['sms.opted_in']);
  });

  it('answers bad input with 422 and field messages', async () => {
    const s = await newSession('evq');
    const types = await api(s, 'GET', '/events?types=message.sent,message.exploded');
    expect(types.status).toBe(422);
    expect(Object.keys(types.body.error.fields)).toEqual(['types']);
    for (const after of ['nonsense!', 'e30x', encodeCursor({ 0: -1 }), btoa('[1,2]'), btoa('{"g":1}')]) {
      expect422(await api(s, 'GET', `/events?after=${encodeURIComponent(after)}`), { after: ['Must be a next_cursor this API answered'] });
    }
    for (const limit of ['0', '501', 'x', '1.5']) {
      const res = await api(s, 'GET', `/events?limit=${limit}`);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.error.fields)).toEqual(['limit']);
    }
    expect((await api(s, 'GET', '/events?what=1')).status).toBe(422);
    // The empty cursor of a new organisation is a good one.
    expect((await pull(s, `?after=${encodeCursor({})}`)).data).toEqual([]);
  });

  it("never shows another organisation's events, whatever the cursor", async () => {
    const a = await newSession('eva');
    const b = await newSession('evb');
    await outboxRow(a.orgId, 'contact.resubscribed', resubscribed(1));
    const mine = await outboxRow(b.orgId, 'contact.resubscribed', resubscribed(2));
    expect((await allEvents(a)).map((e) => e.data)).toEqual([resubscribed(1)]);
    expect((await allEvents(b)).map((e) => e.id)).toEqual([mine]);
    expect((await pull(b, `?after=${encodeCursor({ 0: 0, 1: 0 })}`)).data.map((e) => e.id)).toEqual([mine]);
  });

  it('is open to organisation keys of read and full scope, not send', async () => {
    const s = await newSession('evk');
    const owner = { orgId: s.orgId, userId: 0, username: '', domain: s.org, token: s.token };
    await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1));
    for (const scope of ['read', 'full'] as const) {
      const key = await newKey(owner, scope);
      const res = await withKey(s.org, key.key, '/api/v1/events');
      expect(res.status, scope).toBe(200);
      expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1);
    }
    const send = await newKey(owner, 'send');
    expect((await withKey(s.org, send.key, '/api/v1/events')).status).toBe(403);
    expect((await api({ ...s, token: 'nope' }, 'GET', '/events')).status).toBe(401);
  });
});

describe("absorbing D1's outbox", () => {
  it('takes each row once, in order, and empties the outbox; a repeat inserts nothing twice', async () => {
    const s = await newSession('evo');
    const id = await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1));
    expect(await announceEvents(env, s.orgId)).toBe(1);
    expect(await outboxCount(s.orgId)).toBe(0);
    // The same row again (an absorption that died before D1's delete): nothing new in the stream.
    await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1), id);
    expect(await announceEvents(env, s.orgId)).toBe(1);
    expect(await outboxCount(s.orgId)).toBe(0);
    expect((await allEvents(s)).map((e) => e.id)).toEqual([id]);
  });

  it("the housekeeping cron absorbs what an announcement missed and drops a gone organisation's rows", async () => {
    const s = await newSession('evh');
    await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1));
    await env.DB.prepare("UPDATE event_outbox SET at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 minutes') WHERE org_id = ?").bind(s.orgId).run();
    await outboxRow(999_999_999, 'contact.resubscribed', resubscribed(1));
    expect(await absorbOverdueEvents(env, createDb(env.DB))).toBeGreaterThanOrEqual(1);
    expect(await outboxCount(s.orgId)).toBe(0);
    expect(await outboxCount(999_999_999)).toBe(0);
    expect((await allEvents(s)).map((e) => e.type)).toEqual(['contact.resubscribed']);
  });
});

describe('keeping 30 days', () => {
  it("deletes the events past EVENT_KEEP_MS in the run's turn of ledgers, the newer ones kept", async () => {
    const s = await newSession('evk');
    const ledger = await ledgerSql(s.orgId);
    const old = new Date(Date.now() - EVENT_KEEP_MS - 3 * 60 * 60 * 1000).toISOString();
    await ledger.prepare("INSERT INTO events (id, type, at, data) VALUES ('evt_old', 'contact.resubscribed', ?, '{}')").bind(old).run();
    const kept = await outboxRow(s.orgId, 'contact.resubscribed', resubscribed(1));
    const { rowid } = (await env.DB.prepare('SELECT rowid FROM ledgers WHERE org_id = ?').bind(s.orgId).first<{ rowid: number }>())!;
    // A run (within two hours of now) whose turn is this ledger's: turns of 15 minutes, 8 of them.
    const turnTime = (rowid % 8) * 15 * 60 * 1000 + 8 * 15 * 60 * 1000 * Math.floor(Date.now() / (8 * 15 * 60 * 1000));
    expect(await pruneOldEvents(env, createDb(env.DB), turnTime)).toBeGreaterThanOrEqual(1);
    const after = await pruneOldEvents(env, createDb(env.DB), turnTime);
    expect(after).toBe(0);
    expect((await allEvents(s)).map((e) => e.id)).toEqual([kept]);
  });
});
