import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { SendChannels } from '../../../src/modules/sending/channels';
import { claimRows, type RowOutcome } from '../../../src/modules/sending/claim';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import { startHeartbeat } from '../../../src/modules/sending/lease';
import { GroupedReports, OutcomeReporter, recordQueuedReport, type OutcomeReportBody } from '../../../src/modules/sending/outcome-report';
import { recordingProviders } from '../channel-helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { ledgerOf, ledgerOfBroadcast, ledgerSql } from '../helpers';

// Recovery that needs no cron: claims on a short lease kept by a heartbeat, outcomes recorded a group at a time,
// a report the database refuses kept on the queue, the runner's watch taking back rows whose lease ran out, and
// the runner's watch taking back rows whose lease ran out (the watchdog cron: broadcast/watchdog.test.ts).

const statuses = async (broadcastId: number) =>
  (
    await (
      await ledgerOfBroadcast(broadcastId)
    )
      .prepare('SELECT status, count(*) AS n FROM messages WHERE broadcast_id = ? GROUP BY status ORDER BY status')
      .bind(broadcastId)
      .all<{ status: string; n: number }>()
  ).results;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('outcomes reported a group at a time', () => {
  it('records accepted messages a group at a time while the batch is still sending', async () => {
    const s = await setup('rep');
    const id = await startable(s.o, s.body());
    const bodies = await runAlarm(s.o, id);
    const rec = recordingProviders();
    const channels = new SendChannels(E, rec.providers);
    const seen: { status: string; n: number }[][] = [];
    // Groups of one; the batch pauses after each message until its group is written (or a second passes).
    const afterChunk = async () => {
      const until = Date.now() + 1000;
      let now = await statuses(id);
      while (!now.some((r) => r.status === 'sent' && r.n >= seen.length + 1) && Date.now() < until) now = await statuses(id);
      seen.push(now);
    };
    await deliverBatch(E, bodies[0], 1, channels, { chunkSize: 1, reportGroup: 1, reportIntervalMs: 0, afterChunk });
    await channels.close();
    // Three email recipients: after the first is accepted it is recorded sent while two are still held by the batch.
    expect(seen[0]).toEqual([
      { status: 'sending', n: 2 },
      { status: 'sent', n: 1 },
      { status: 'skipped', n: 1 },
    ]);
    expect(seen[1]).toEqual([
      { status: 'sending', n: 1 },
      { status: 'sent', n: 2 },
      { status: 'skipped', n: 1 },
    ]);
    expect(await statuses(id)).toEqual([
      { status: 'sent', n: 3 },
      { status: 'skipped', n: 1 },
    ]);
    const b = await (await ledgerOfBroadcast(id)).prepare('SELECT status, sent, skipped FROM broadcasts WHERE id = ?').bind(id).first();
    expect(b).toEqual({ status: 'finished', sent: 3, skipped: 1 });
  });

  it('queues a report the database refuses, and its consumer writes it once however often it runs', async () => {
    const s = await setup('late');
    const id = await startable(s.o, s.body());
    const [body] = await runAlarm(s.o, id);
    const db = createDb(env.DB);
    // The messages are in the organisation's ledger (src/modules/ledger).
    const ledger = await ledgerOf(s.o.orgId);
    const claim = await claimRows<{ id: number }>(ledger.db, { table: 'messages', ids: body.ids, columns: ['id'] });
    expect(claim.rows).toHaveLength(3);
    // The ledger refuses every batch (the outcome writes); the queue records what it is given.
    const down = new Proxy(ledger.d1, {
      get(target, key) {
        if (key === 'batch') return async () => Promise.reject(new Error('D1 is down'));
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const queued: OutcomeReportBody[] = [];
    const recordingEnv = { ...E, SEND_QUEUE: { send: async (b: OutcomeReportBody) => void queued.push(b) } } as unknown as Env;
    const outcomes: RowOutcome[] = claim.rows.map((r) => ({ id: r.id, status: 'sent', externalId: `<${r.id}@x>` }));
    await new OutcomeReporter(recordingEnv, createDb(down), s.o.orgId, claim.token, [id], claim.rows[0].id).report(outcomes, {
      reach: { kind: 'reached' },
      heldUntil: null,
    });
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ kind: 'record-outcomes', token: claim.token, broadcastIds: [id], last: true, messageId: claim.rows[0].id });
    expect(await statuses(id)).toEqual([
      { status: 'sending', n: 3 },
      { status: 'skipped', n: 1 },
    ]);
    // The queued report, delivered twice: written once.
    await recordQueuedReport(E, db, queued[0]);
    await recordQueuedReport(E, db, queued[0]);
    expect(await statuses(id)).toEqual([
      { status: 'sent', n: 3 },
      { status: 'skipped', n: 1 },
    ]);
    expect(await (await ledgerOfBroadcast(id)).prepare('SELECT status, sent FROM broadcasts WHERE id = ?').bind(id).first()).toEqual({
      status: 'finished',
      sent: 3,
    });
  });
});

describe('grouped reports', () => {
  it('writes one to two groups at a time with one write in flight, however many sessions add at once', async () => {
    let active = 0;
    let most = 0;
    const groups: number[][] = [];
    const reporter = {
      async report(outcomes: RowOutcome[]) {
        most = Math.max(most, ++active);
        await sleep(5);
        groups.push(outcomes.map((o) => o.id));
        active--;
      },
    } as unknown as OutcomeReporter;
    const grouped = new GroupedReports(reporter, 4, 0);
    // Three sessions, each adding its accepted messages one after another, as the SMTP loops do.
    const session = async (from: number) => {
      for (let id = from; id < from + 10; id++) await grouped.add({ id, status: 'sent', externalId: null });
    };
    await Promise.all([session(0), session(100), session(200)]);
    await grouped.settle();
    expect(most).toBe(1);
    expect(groups.every((g) => g.length >= 4 && g.length <= 8)).toBe(true);
    // 30 added: fewer than a group may be left for the batch's last report.
    const written = groups.flat();
    expect(written.length).toBeGreaterThan(26);
    expect(new Set(written).size).toBe(written.length);
    expect([...grouped.written].sort()).toEqual([...written].sort());
  });
});

describe('the lease and its heartbeat', () => {
  it('keeps a claim while the delivery works, and hands the rows to the next delivery once the heartbeat stops', async () => {
    const s = await setup('beat');
    const id = await startable(s.o, s.body());
    const [body] = await runAlarm(s.o, id);
    // The messages are in the organisation's ledger (src/modules/ledger).
    const { db } = await ledgerOf(s.o.orgId);
    const lease = 400;
    const first = await claimRows<{ id: number }>(db, { table: 'messages', ids: body.ids, columns: ['id'], leaseMs: lease });
    expect(first.rows).toHaveLength(3);
    const heartbeat = startHeartbeat(
      db,
      'messages',
      first.token,
      first.rows.map((r) => r.id),
      lease,
    );
    // Three leases long: the heartbeat renews it every quarter, so no other delivery gets a row.
    for (let i = 0; i < 6; i++) {
      await sleep(lease / 2);
      expect((await claimRows(db, { table: 'messages', ids: body.ids, columns: ['id'], leaseMs: lease })).rows).toEqual([]);
    }
    await heartbeat.stop();
    await sleep(lease + 100);
    const second = await claimRows<{ id: number }>(db, { table: 'messages', ids: body.ids, columns: ['id'], leaseMs: lease });
    expect(second.rows.map((r) => r.id).sort()).toEqual(first.rows.map((r) => r.id).sort());
  });
});

describe("the runner's watch", () => {
  it('puts back on the queue the rows of a delivery whose lease ran out, and finishes once they are sent', async () => {
    const s = await setup('watch');
    const id = await startable(s.o, s.body());
    const [body] = await runAlarm(s.o, id);
    // A delivery claimed the rows and died a minute and a half ago (the default lease is a minute).
    const past = new Date(Date.now() - 90_000).toISOString();
    await (await ledgerSql(s.o.orgId))
      .prepare(`UPDATE messages SET status = 'sending', claim = 'dead', updated_at = ? WHERE id IN (${body.ids.join(',')}) AND status = 'queued'`)
      .bind(past)
      .run();
    const again = await runAlarm(s.o, id);
    expect(again.flatMap((b) => b.ids).sort()).toEqual([...body.ids].sort());
    await deliverAll(again);
    expect(await statuses(id)).toEqual([
      { status: 'sent', n: 3 },
      { status: 'skipped', n: 1 },
    ]);
    expect((await runAlarm(s.o, id)).length).toBe(0);
    expect((await (await ledgerOfBroadcast(id)).prepare('SELECT status FROM broadcasts WHERE id = ?').bind(id).first())?.status).toBe('finished');
  });

  it('leaves a live claim alone', async () => {
    const s = await setup('live');
    const id = await startable(s.o, s.body());
    const [body] = await runAlarm(s.o, id);
    await (await ledgerSql(s.o.orgId))
      .prepare(`UPDATE messages SET status = 'sending', claim = 'alive', updated_at = ? WHERE id IN (${body.ids.join(',')}) AND status = 'queued'`)
      .bind(new Date().toISOString())
      .run();
    expect(await runAlarm(s.o, id)).toEqual([]);
  });
});
