// The organisation's messages in its ledger (src/modules/ledger): ids unique across ledgers, a started broadcast's
// status and counters projected into D1 with a revision, and the move of the messages made before the ledger.
import { env, runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { ID_BLOCK } from '../../../src/modules/ledger/ids';
import { moveMessagePage, moveMessagesToLedgers } from '../../../src/modules/ledger/move';
import { ledgerName } from '../../../src/modules/ledger/owner';
import { projectStatement, type ProjectedRow } from '../../../src/modules/ledger/projection';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { deliverAll, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { newOrg, type Org } from '../channel-helpers';
import { ledgerOfBroadcast, ledgerSql } from '../helpers';

const E = env as unknown as Env;
const db = () => createDb(E.DB);

const d1Broadcast = (id: number) => E.DB.prepare('SELECT status, total, sent, skipped, rev FROM broadcasts WHERE id = ?').bind(id).first();

/** Runs the ledger's alarm (its projection into D1) now. */
async function project(orgId: number) {
  const handle = (await orgLedger(E, db(), orgId))!;
  await runDurableObjectAlarm(ledgerStub(E, ledgerName(handle.owner.key, handle.owner.generation)));
}

describe("a started broadcast's state", () => {
  it('is written by the ledger and shown in D1 by its projection, which a late, older revision never overwrites', async () => {
    const s = await setup('pj');
    const id = await startable(s.o, s.body());
    await deliverAll(await runAlarm(s.o, id));
    await runAlarm(s.o, id);
    const ledger = await ledgerOfBroadcast(id);
    const written = await ledger.prepare('SELECT * FROM broadcasts WHERE id = ?').bind(id).first<ProjectedRow>();
    expect(written).toMatchObject({ status: 'finished', total: 4, sent: 3, skipped: 1 });
    await project(s.o.orgId);
    expect(await d1Broadcast(id)).toEqual({ status: 'finished', total: 4, sent: 3, skipped: 1, rev: written!.rev });
    // The API reads the ledger's state of a started broadcast, whatever D1 shows.
    expect((await s.o.api('GET', `/broadcast/${id}`)).body.data).toMatchObject({ status: 'finished', sent: 3, skipped: 1 });
    // A projection of an older revision arriving late changes nothing.
    await projectStatement(db(), { ...written!, status: 'sending', sent: 1, rev: written!.rev - 1 });
    expect(await d1Broadcast(id)).toEqual({ status: 'finished', total: 4, sent: 3, skipped: 1, rev: written!.rev });
    // The same revision again changes nothing either; a newer one is shown.
    await projectStatement(db(), { ...written!, sent: 99 });
    expect(await d1Broadcast(id)).toMatchObject({ sent: 3 });
    await projectStatement(db(), { ...written!, sent: 99, rev: written!.rev + 1 });
    expect(await d1Broadcast(id)).toMatchObject({ sent: 99 });
  });
});

describe('message ids', () => {
  it("are made in each ledger's own block, so no two organisations ever share one, and another's id is not found", async () => {
    const [a, b] = [await setup('ia'), await setup('ib')];
    const ids = async (s: typeof a) => {
      const id = await startable(s.o, s.body());
      await deliverAll(await runAlarm(s.o, id));
      return (await s.o.api('GET', `/message?broadcast_id=${id}`)).body.items.map((m: { id: number }) => m.id) as number[];
    };
    const [mine, theirs] = [await ids(a), await ids(b)];
    expect(mine).toHaveLength(4);
    const blocks = (list: number[]) => new Set(list.map((id) => Math.floor(id / ID_BLOCK)));
    expect(blocks(mine).size).toBe(1);
    expect([...blocks(mine)][0]).toBeGreaterThan(0);
    expect([...blocks(mine)][0]).not.toBe([...blocks(theirs)][0]);
    for (const id of theirs) expect((await a.o.api('GET', `/message/${id}`)).status).toBe(404);
    expect((await b.o.api('GET', `/message/${theirs[0]}`)).status).toBe(200);
  });
});

/** Messages made before the ledger: straight into D1, with their events and link clicks. */
async function legacyMessages(o: Org, n: number) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = await E.DB.prepare(
      `INSERT INTO messages (org_id, type, status, broadcast_id, from_address, to_address, subject, body, sent_at, opens_total)
       VALUES (?, 'email', 'sent', ?, 'hello@acme.test', ?, 'Old news', '', '2026-10-01T10:00:00.000Z', ?) RETURNING id`,
    )
      .bind(o.orgId, i === 0 ? null : 77, `old${i}@example.com`, i === 1 ? 2 : 0)
      .first<{ id: number }>();
    ids.push(row!.id);
  }
  for (const k of [1, 2])
    await E.DB.prepare(
      `INSERT INTO tracking_events (id, org_id, message_id, broadcast_id, kind, class, reason, method, at) VALUES (?, ?, ?, 77, 'open', 'human', 'ok', 'GET', ?)`,
    )
      .bind(`legacy-${o.orgId}-${k}`, o.orgId, ids[Math.min(1, n - 1)], `2026-10-01T1${k}:00:00.000Z`)
      .run();
  await E.DB.prepare(`INSERT INTO broadcast_links (org_id, broadcast_id, link_index, url, clicks, clicks_unique) VALUES (?, 77, 0, 'https://a.example', 5, 2)`)
    .bind(o.orgId)
    .run();
  return ids;
}

const d1Count = async (table: string, orgId: number) =>
  (await E.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE org_id = ?`).bind(orgId).first<{ n: number }>())!.n;

describe('the move of the messages made before the ledger', () => {
  it('copies them with their ids, events and link clicks, verifies, then deletes them from D1; a run cut off part-way is finished once', async () => {
    const o = await newOrg('mv');
    const other = await newOrg('mw');
    const ids = await legacyMessages(o, 3);
    const [otherId] = await legacyMessages(other, 1);
    for (const id of ids) expect(id).toBeLessThan(ID_BLOCK);

    // A run cut off after its copy, before D1's delete: the rows are in both; the next run finishes without copies.
    const refusing = new Proxy(E.DB, {
      get(target, key) {
        if (key === 'batch') return async () => Promise.reject(new Error('D1 is down'));
        const value = Reflect.get(target, key);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await expect(moveMessagePage(E, createDb(refusing), o.orgId, 2)).rejects.toThrow('D1 is down');
    expect(await d1Count('messages', o.orgId)).toBe(3);

    expect(await moveMessagesToLedgers(E, db())).toBe(4);
    expect(await moveMessagesToLedgers(E, db())).toBe(0);
    for (const table of ['messages', 'tracking_events', 'broadcast_links']) {
      expect(await d1Count(table, o.orgId), table).toBe(0);
      expect(await d1Count(table, other.orgId), table).toBe(0);
    }
    const ledger = await ledgerSql(o.orgId);
    expect((await ledger.prepare('SELECT id FROM messages ORDER BY id').all<{ id: number }>()).results.map((r) => r.id)).toEqual(ids);
    expect((await ledger.prepare('SELECT count(*) AS n FROM tracking_events').first<{ n: number }>())!.n).toBe(2);
    expect(await ledger.prepare('SELECT clicks, clicks_unique FROM broadcast_links WHERE broadcast_id = 77').first()).toEqual({ clicks: 5, clicks_unique: 2 });

    // The console finds them by their old ids, with their kept totals and hits; the other organisation does not.
    const list = (await o.api('GET', '/message')).body;
    expect(list.meta.total).toBe(3);
    expect((await o.api('GET', `/message/${ids[1]}`)).body.data).toMatchObject({ id: ids[1], to_address: 'old1@example.com', opens_total: 2 });
    expect((await o.api('GET', `/message/${ids[1]}/engagement`)).body.data.hits).toHaveLength(2);
    expect((await o.api('GET', `/message/${otherId}`)).status).toBe(404);
    expect((await other.api('GET', `/message/${otherId}`)).status).toBe(200);
  });
});
