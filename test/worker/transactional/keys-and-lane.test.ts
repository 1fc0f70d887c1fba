import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { ledgerName } from '../../../src/modules/ledger/owner';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { deliverMessage } from '../../../src/modules/message/send-message';
import { enqueueBatches } from '../../../src/modules/sending/send-queue';
import { LANE_COLUMNS, LANE_LOST_MS, laneWatchOf, nextLaneWatch, takeDueSingles, type LaneRow } from '../../../src/modules/transactional/lane';
import type { KeyOrg } from '../api-key/helpers';
import { newKey, setLimits, withKey } from '../api-key/helpers';
import { channels, createTemplate, newOrg, recordingProviders, type Org } from '../channel-helpers';
import { ledgerSql } from '../helpers';

// The send API with organisation keys (the key on the message, a test key's sandbox, a send-only key's reach, another
// organisation's key and references, the hourly limit), and the single messages' lane: its own queue, and the
// ledger's watch that hands the queue what is due or lost.

async function setup(prefix = 'txk') {
  const o = await newOrg(prefix);
  const ch = await channels(o);
  const template = await createTemplate(o, { type: 'html', name: 'Code', subject: 'Your code', body: '<p>{{ data.code }}</p>' });
  const owner = { domain: o.org, token: o.token } as KeyOrg;
  return { o, ...ch, template, owner };
}

const sendWith = (o: Org, key: string, json: unknown, path = '/api/v1/send') =>
  withKey(o.org, key, path, { method: 'POST', json }).then(async (res) => ({ status: res.status, headers: res.headers, body: (await res.json()) as any }));

const rowOf = async (o: Org, id: number) => (await ledgerSql(o.orgId)).prepare('SELECT * FROM messages WHERE id = ?').bind(id).first<Record<string, unknown>>();

describe('sending with an organisation key', () => {
  it('names the key on the message; a send-only key reaches nothing else', async () => {
    const s = await setup();
    const key = await newKey(s.owner, 'send', { name: 'Web app' });
    const res = await sendWith(s.o, key.key, { to: 'a@example.com', sender_id: s.email.id, template_id: s.template.id, data: { code: '7' } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await rowOf(s.o, res.body.data.id)).toMatchObject({ api_key_id: key.id, status: 'queued', is_test: 0 });
    expect((await s.o.api('GET', `/message/${res.body.data.id}`)).body.data).toMatchObject({ kind: 'transactional', api_key_id: key.id });
    expect((await withKey(s.o.org, key.key, '/api/v1/message')).status).toBe(403);
    expect((await withKey(s.o.org, key.key, `/api/v1/template/${s.template.id}`)).status).toBe(403);
  });

  it('a test key runs every check and records the message as sent to a sandbox, never queued or delivered', async () => {
    const s = await setup();
    const key = await newKey(s.owner, 'send', { test: true });
    expect(key.key.startsWith('rk_test_')).toBe(true);
    const res = await sendWith(s.o, key.key, { to: 'a@example.com', sender_id: s.email.id, template_id: s.template.id, data: { code: '7' } });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'sent', sandbox: true });
    expect(await rowOf(s.o, res.body.data.id)).toMatchObject({ status: 'sent', external_id: 'sandbox' });
    expect((await s.o.api('GET', `/message/${res.body.data.id}`)).body.data).toMatchObject({ sandbox: true, status: 'sent' });
    // Nothing for a delivery to take.
    const rec = recordingProviders();
    await deliverMessage(env, { orgId: s.o.orgId, messageId: res.body.data.id }, 1, rec.providers);
    expect(rec.sent).toHaveLength(0);
    // The same refusals as a live key.
    expect((await sendWith(s.o, key.key, { to: 'a@example.com', sender_id: s.email.id, template_id: s.template.id })).status).toBe(422);
  });

  it("cannot use another organisation's senders or templates, nor be used on its host", async () => {
    const a = await setup('txa');
    const b = await setup('txb');
    const keyA = await newKey(a.owner, 'send');
    const foreignSender = await sendWith(a.o, keyA.key, { to: 'x@example.com', sender_id: b.email.id, template_id: a.template.id, data: { code: '1' } });
    expect(foreignSender.status).toBe(422);
    expect(foreignSender.body.error.fields.sender_id).toBeDefined();
    const foreignTemplate = await sendWith(a.o, keyA.key, { to: 'x@example.com', sender_id: a.email.id, template_id: b.template.id, data: { code: '1' } });
    expect(foreignTemplate.status).toBe(422);
    expect(foreignTemplate.body.error.fields.template_id).toBeDefined();
    const onB = await sendWith(b.o, keyA.key, { to: 'x@example.com', sender_id: b.email.id, template_id: b.template.id, data: { code: '1' } });
    expect(onB.status).toBe(403);
    expect(onB.body.error.code).toBe('wrong_organization');
    expect((await (await ledgerSql(b.o.orgId)).prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n).toBe(0);
  });

  it("answers 429 with Retry-After past the key's messages per hour, and writes nothing for the refused call", async () => {
    const s = await setup();
    await setLimits(s.o.org, { key_messages_per_hour: 3 });
    const key = await newKey(s.owner, 'send');
    const json = { to: 'a@example.com', sender_id: s.email.id, template_id: s.template.id, data: { code: '7' } };
    const two = await sendWith(s.o, key.key, { messages: [json, json] }, '/api/v1/send/batch');
    expect(two.status).toBe(202);
    const count = async () => (await (await ledgerSql(s.o.orgId)).prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n;
    const before = await count();
    const over = await sendWith(s.o, key.key, { messages: [json, json] }, '/api/v1/send/batch');
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('rate_limited');
    expect(over.body.error.message).toMatch(/3 messages per hour/);
    expect(Number(over.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(await count()).toBe(before);
    // One more still fits the hour.
    expect((await sendWith(s.o, key.key, json)).status).toBe(202);
  });
});

describe('the single messages lane', () => {
  it("puts single messages on the transactional queue and a broadcast's on the send queue: never in the same line", async () => {
    const seen: { queue: string; ids: number[] }[] = [];
    const queue = (name: string) => ({
      sendBatch: async (batch: { body: { ids: number[] } }[]) => void seen.push(...batch.map((m) => ({ queue: name, ids: m.body.ids }))),
    });
    const fake = { SEND_QUEUE: queue('send'), TRANSACTIONAL_QUEUE: queue('transactional') } as unknown as Parameters<typeof enqueueBatches>[0];
    await enqueueBatches(fake, 1, 7, [1, 2, 3]);
    await enqueueBatches(fake, 1, null, [4]);
    expect(seen).toEqual([
      { queue: 'send', ids: [1, 2, 3] },
      { queue: 'transactional', ids: [4] },
    ]);
  });

  it("the ledger's watch hands over what is due or lost, and only that; and says when to look next", async () => {
    const s = await setup();
    const handle = (await orgLedger(env, createDb(env.DB), s.o.orgId))!;
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const answer = await runInDurableObject(ledgerStub(env, ledgerName(handle.owner.key, handle.owner.generation)), (_i, state) => {
      const sql = state.storage.sql;
      const insert = (status: string, updatedAt: number, delayedAt: number | null, broadcastId: number | null = null) =>
        Number(
          sql
            .exec<{ id: number }>(
              `INSERT INTO messages (org_id, type, status, broadcast_id, from_address, to_address, body, delayed_at, updated_at)
               VALUES (?, 'email', ?, ?, 'f@x.test', 't@x.test', '', ?, ?) RETURNING id`,
              s.o.orgId,
              status,
              broadcastId,
              delayedAt === null ? null : iso(delayedAt),
              iso(updatedAt),
            )
            .one().id,
        );
      const fresh = insert('queued', now - 1_000, null);
      const lost = insert('queued', now - LANE_LOST_MS - 1_000, null);
      const deadClaim = insert('sending', now - LANE_LOST_MS - 1_000, null);
      const working = insert('sending', now - 5_000, null);
      const scheduledLater = insert('queued', now - 10_000, now + 3_600_000);
      const scheduledDue = insert('queued', now - 10_000, now - 500);
      const broadcastRow = insert('queued', now - LANE_LOST_MS - 1_000, null, 99);
      const sent = insert('sent', now - LANE_LOST_MS - 1_000, null);
      const taken = takeDueSingles(sql, now);
      const again = takeDueSingles(sql, now);
      return { ids: { fresh, lost, deadClaim, working, scheduledLater, scheduledDue, broadcastRow, sent }, taken, again, next: nextLaneWatch(sql, now) };
    });
    expect(answer.taken.sort()).toEqual([answer.ids.lost, answer.ids.deadClaim, answer.ids.scheduledDue].sort());
    // Handed over: not again until they would be lost again.
    expect(answer.again).toEqual([]);
    // Next: when the oldest one still in hand would be lost (the claim renewed five seconds ago).
    expect(answer.next).toBe(now - 5_000 + LANE_LOST_MS);
  });

  it("a call's messages set the ledger's watch from their own times, without reading the lane", async () => {
    const s = await setup();
    const handle = (await orgLedger(env, createDb(env.DB), s.o.orgId))!;
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const row = (status: string, delayedAt: number | null): LaneRow => ({
      ...(Object.fromEntries(LANE_COLUMNS.map((col) => [col, null])) as LaneRow),
      org_id: s.o.orgId,
      type: 'email',
      status,
      is_test: 0,
      from_address: 'f@x.test',
      to_address: 't@x.test',
      body: '',
      delayed_at: delayedAt === null ? null : iso(delayedAt),
    });
    const plan = (count: number) => ({
      batch: true,
      items: Array.from({ length: count }, (_, k) => ({ accepted: true as const, row: k, to: 't@x.test', sendAt: null, sandbox: false })),
    });
    // The function: the earliest scheduled time, or when a queued one would be lost; never sooner than a second; a
    // test key's rows (sent at once) need no watch.
    expect(laneWatchOf([row('queued', now + 3_600_000), row('queued', now + 600_000)], now)).toBe(now + 600_000);
    expect(laneWatchOf([row('queued', now + 3_600_000), row('queued', null)], now)).toBe(now + LANE_LOST_MS);
    expect(laneWatchOf([row('queued', now + 10)], now)).toBe(now + 1_000);
    expect(laneWatchOf([row('sent', null)], now)).toBeNull();

    // The ledger: its alarm is set by the call (the backlog of unfinished rows is never read), and an earlier alarm
    // stays.
    const alarms = await runInDurableObject(ledgerStub(env, ledgerName(handle.owner.key, handle.owner.generation)), async (instance, state) => {
      const reset = async () => {
        await state.storage.deleteAlarm();
        (instance as unknown as { alarmAt: number | null }).alarmAt = null;
      };
      const accept = async (rows: LaneRow[]) => {
        const answer = await instance.acceptSends(handle.owner, { rows, plan: plan(rows.length) }, null, null, now);
        expect(answer.ok && answer.value.ok).toBe(true);
        return state.storage.getAlarm();
      };
      await reset();
      const sandboxOnly = await accept([row('sent', null)]);
      const scheduled = await accept([row('queued', now + 3_600_000)]);
      const thenQueued = await accept([row('queued', null)]);
      const thenLater = await accept([row('queued', now + 7_200_000)]);
      return { sandboxOnly, scheduled, thenQueued, thenLater };
    });
    expect(alarms).toEqual({ sandboxOnly: null, scheduled: now + 3_600_000, thenQueued: now + LANE_LOST_MS, thenLater: now + LANE_LOST_MS });
  });
});
