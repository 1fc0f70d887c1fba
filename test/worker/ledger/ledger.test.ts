// The tenant ledger (src/modules/ledger): made on first use for its owner through the D1 registry, refusing every
// call until then and every call naming another owner, emptied by the drainer when its organisation goes, measured
// by the size guard; and the send gate it keeps (src/modules/sending/send-gate.ts).
import { env, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { drainLedgerDeletions } from '../../../src/modules/ledger/drain';
import { LEDGER_NOT_INITIALISED, LEDGER_WRONG_OWNER, LedgerRefused, ledgerName, served } from '../../../src/modules/ledger/owner';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { measureLedgers } from '../../../src/modules/ledger/size-guard';
import { gateLedger, holdGate, LANE_ACTIVE_MS, releaseGate, reserveOnGate, reserveSends, SINGLES_SHARE } from '../../../src/modules/sending/send-gate';
import { newOrg } from '../channel-helpers';
import { operator } from '../signup/helpers';

const E = env as unknown as Env;
const db = () => createDb(E.DB);
const one = <T>(query: string, ...params: unknown[]) =>
  E.DB.prepare(query)
    .bind(...params)
    .first<T>();

/** The tables of a ledger's storage: none for an object that was never made for anyone. */
const tablesOf = (name: string) =>
  runInDurableObject(ledgerStub(E, name), (_instance, state) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name")
      .toArray()
      .map((r) => r.name),
  );

describe('the ledger registry', () => {
  it('makes one ledger per organisation on first use, named from a random key, and finds the same one after', async () => {
    const o = await newOrg('lg');
    expect(await one('SELECT ledger_key FROM organizations WHERE id = ?', o.orgId)).toEqual({ ledger_key: null });
    // Two first uses at once agree on one key and one ledger.
    const [a, b] = await Promise.all([orgLedger(E, db(), o.orgId), orgLedger(E, db(), o.orgId)]);
    expect(a!.owner).toEqual(b!.owner);
    expect(a!.owner.key).toMatch(/^[0-9a-f]{32}$/);
    expect(a!.owner).toEqual({ orgId: o.orgId, key: a!.owner.key, generation: 0 });
    const registry = await E.DB.prepare('SELECT name, generation, id_base, ready FROM ledgers WHERE org_id = ?').bind(o.orgId).all<{ id_base: number }>();
    expect(registry.results).toEqual([{ name: ledgerName(a!.owner.key, 0), generation: 0, id_base: expect.any(Number), ready: 1 }]);
    expect((await orgLedger(E, db(), o.orgId))!.owner).toEqual(a!.owner);
    expect(await tablesOf(ledgerName(a!.owner.key, 0))).toEqual([
      'api_buckets',
      'archive_holders',
      'broadcast_links',
      'broadcasts',
      'events',
      'idempotency_keys',
      'ledger_owner',
      'ledger_schema',
      'list_counts',
      'messages',
      'org_daily_stats',
      'revoked_api_keys',
      'send_gates',
      'sqlite_sequence',
      'tracking_events',
      'webhook_deliveries',
      'webhook_endpoints',
      'webhook_flights',
      'webhook_mirror_loaded',
    ]);
    // Its message ids start in its own block: unique across every ledger of the platform.
    const other = await newOrg('lg2');
    const blocks = await E.DB.prepare('SELECT id_base FROM ledgers WHERE org_id IN (?, ?)').bind(o.orgId, other.orgId).all<{ id_base: number }>();
    await orgLedger(E, db(), other.orgId);
    const both = await E.DB.prepare('SELECT id_base FROM ledgers WHERE org_id IN (?, ?)').bind(o.orgId, other.orgId).all<{ id_base: number }>();
    expect(blocks.results).toHaveLength(1);
    expect(new Set(both.results.map((r) => r.id_base)).size).toBe(2);
    const seq = await runInDurableObject(ledgerStub(E, ledgerName(a!.owner.key, 0)), (_instance, state) =>
      state.storage.sql.exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").one(),
    );
    expect(seq.seq).toBe(registry.results[0].id_base * 2 ** 32);
  });

  it('answers nothing for an organisation that does not exist, and registers nothing', async () => {
    expect(await orgLedger(E, db(), 987654)).toBeNull();
    expect(await one('SELECT count(*) AS n FROM ledgers WHERE org_id = 987654')).toEqual({ n: 0 });
  });
});

describe('a ledger', () => {
  it('refuses every call until it is made for its owner, and a refused call leaves no storage behind', async () => {
    const name = ledgerName('0'.repeat(32), 0);
    const owner = { orgId: 1, key: '0'.repeat(32), generation: 0 };
    expect(await ledgerStub(E, name).size(owner)).toEqual({ ok: false, refused: LEDGER_NOT_INITIALISED });
    expect(await ledgerStub(E, name).reserveSends(owner, 1, 10, 5, Date.now())).toEqual({ ok: false, refused: LEDGER_NOT_INITIALISED });
    expect(await tablesOf(name)).toEqual([]);
  });

  it("refuses a call that names another owner: another organisation's id, key or generation", async () => {
    const [a, b] = [await newOrg('la'), await newOrg('lb')];
    const ledgerA = (await orgLedger(E, db(), a.orgId))!;
    const ledgerB = (await orgLedger(E, db(), b.orgId))!;
    for (const wrong of [
      { ...ledgerA.owner, orgId: b.orgId },
      { ...ledgerA.owner, key: ledgerB.owner.key },
      { ...ledgerA.owner, generation: 1 },
      ledgerB.owner,
    ]) {
      expect(await ledgerA.stub.reserveSends(wrong, 1, 10, 5, Date.now())).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
      expect(await ledgerA.stub.init(wrong, 99)).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
      expect(await ledgerA.stub.destroy(wrong)).toEqual({ ok: false, refused: LEDGER_WRONG_OWNER });
    }
    // Its owner is still served, and init again for the same owner (and its block) changes nothing.
    const { id_base: base } = (await one<{ id_base: number }>('SELECT id_base FROM ledgers WHERE org_id = ?', a.orgId))!;
    expect(await ledgerA.stub.init(ledgerA.owner, base)).toEqual({ ok: true, value: ledgerA.owner });
    expect(served(await ledgerA.stub.size(ledgerA.owner))).toBeGreaterThan(0);
    // The worker's side turns a refusal into an error with its code.
    expect(() => served({ ok: false, refused: LEDGER_WRONG_OWNER })).toThrow(LedgerRefused);
  });

  it('is emptied by the drainer when its organisation is deleted, and refuses calls after', async () => {
    const o = await newOrg('ld');
    const ledger = (await orgLedger(E, db(), o.orgId))!;
    const name = ledgerName(ledger.owner.key, 0);
    await reserveSends(await gateLedger(E, db(), o.orgId), { id: 7, maxRate: 5, heldUntil: 0, throttleLevel: 0 }, 5);
    const me = (await o.api('GET', '/internal-user/me')).body.data;
    const res = await o.api('DELETE', `/internal-user/${me.id}`, { confirm: me.username });
    expect(res.status).toBe(200);
    // The registry row went with the organisation; the trigger queued the ledger (the request's own drain may have run already).
    expect(await one('SELECT count(*) AS n FROM ledgers WHERE org_id = ?', o.orgId)).toEqual({ n: 0 });
    await drainLedgerDeletions(E, db());
    expect(await one('SELECT count(*) AS n FROM ledger_deletions WHERE name = ?', name)).toEqual({ n: 0 });
    expect(await ledger.stub.size(ledger.owner)).toEqual({ ok: false, refused: LEDGER_NOT_INITIALISED });
    expect(await tablesOf(name)).toEqual([]);
    // A late call for the organisation finds nothing to make a ledger for.
    expect(await orgLedger(E, db(), o.orgId)).toBeNull();
  });

  it('is drained by the next run when a drain was cut short: a queued ledger already emptied is simply done', async () => {
    const o = await newOrg('le');
    const ledger = (await orgLedger(E, db(), o.orgId))!;
    const name = ledgerName(ledger.owner.key, 0);
    await ledger.stub.destroy(ledger.owner);
    await E.DB.prepare('DELETE FROM ledgers WHERE name = ?').bind(name).run();
    expect(await one('SELECT org_id FROM ledger_deletions WHERE name = ?', name)).toEqual({ org_id: o.orgId });
    expect(await drainLedgerDeletions(E, db())).toBeGreaterThanOrEqual(1);
    expect(await one('SELECT count(*) AS n FROM ledger_deletions WHERE name = ?', name)).toEqual({ n: 0 });
  });
});

describe('the size guard', () => {
  it("records each ledger's size, warns about one past the mark, and lists them for the operator", async () => {
    const o = await newOrg('ls');
    const ledger = (await orgLedger(E, db(), o.orgId))!;
    const name = ledgerName(ledger.owner.key, 0);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await measureLedgers(E, db(), 1)).toBeGreaterThanOrEqual(1);
      const warned = warn.mock.calls.map((c) => JSON.parse(String(c[0]))).find((line) => line.ledger === name);
      expect(warned).toMatchObject({ level: 'warn', job: 'measureLedgers', orgId: o.orgId });
      expect(warned.bytes).toBeGreaterThan(0);
    } finally {
      warn.mockRestore();
    }
    const row = await one<{ size_bytes: number; measured_at: string }>('SELECT size_bytes, measured_at FROM ledgers WHERE name = ?', name);
    expect(row!.size_bytes).toBeGreaterThan(0);
    // Measured within the hour: the next run leaves it.
    const again = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await measureLedgers(E, db(), 1);
      expect(again.mock.calls.some((c) => String(c[0]).includes(name))).toBe(false);
    } finally {
      again.mockRestore();
    }
    const listed = await operator('GET', '/ledgers?limit=1000');
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((l: { name: string }) => l.name === name);
    expect(mine).toMatchObject({ org_id: o.orgId, domain: o.org, generation: 0, size_bytes: row!.size_bytes, near_limit: false });
    expect((await operator('GET', '/ledgers?limit=0')).status).toBe(422);
  });
});

describe('the send gate', () => {
  const at = 1_000_000;
  const open = { nextSlotAt: 0, heldUntil: 0, throttleLevel: 0, nextSingleAt: 0, lastSingleAt: 0, lastBulkAt: 0 };

  it('reserves at the rate from where the last reservation ended, refuses beyond the wait, and holds twice as long each time', () => {
    const first = reserveOnGate(open, 10, 10, at);
    expect(first).toEqual({ state: { ...open, nextSlotAt: at + 1000, lastBulkAt: at }, reservation: { granted: true, waitMs: 0 } });
    const second = reserveOnGate(first.state!, 10, 10, at);
    expect(second.reservation).toEqual({ granted: true, waitMs: 1000 });
    const far = reserveOnGate({ ...open, nextSlotAt: at + 25_000 }, 10, 10, at);
    expect(far).toEqual({ state: null, reservation: { granted: false, retryInMs: 15_000 } });
    // Without a rate only a hold makes a batch wait, and nothing is written.
    expect(reserveOnGate({ ...open, heldUntil: at + 3000 }, null, 500, at)).toEqual({ state: null, reservation: { granted: true, waitMs: 3000 } });
    const held = holdGate(holdGate(open, at), at);
    expect(held).toEqual({ ...open, heldUntil: at + 4000, throttleLevel: 2 });
    expect(releaseGate(held)).toEqual({ ...held, throttleLevel: 0 });
  });

  it("keeps the singles' share from a broadcast while both send, and gives each line the whole rate when the other is quiet", () => {
    // A broadcast alone: the whole rate (10 per second: 10 in a second).
    const bulk = reserveOnGate(open, 10, 10, at, 'bulk');
    expect(bulk.state!.nextSlotAt).toBe(at + 1000);
    // A single message beside it: its own line, not behind the broadcast's slots, at its share of the rate.
    const single = reserveOnGate(bulk.state!, 10, 1, at, 'single');
    expect(single.reservation).toEqual({ granted: true, waitMs: 0 });
    expect(single.state!.nextSingleAt).toBe(at + Math.floor(1000 / (10 * SINGLES_SHARE)));
    // The broadcast's next batch, singles active: only the rest of the rate.
    const after = reserveOnGate(single.state!, 10, 10, at, 'bulk');
    expect(after.reservation).toEqual({ granted: true, waitMs: 1000 });
    expect(after.state!.nextSlotAt).toBe(at + 1000 + Math.floor(10_000 / (10 * (1 - SINGLES_SHARE))));
    // Long after the last single, the broadcast has the whole rate again; singles alone have it too.
    const later = at + LANE_ACTIVE_MS + 1;
    expect(reserveOnGate(after.state!, 10, 10, later, 'bulk').state!.nextSlotAt).toBe(later + 1000);
    expect(reserveOnGate({ ...open }, 10, 10, at, 'single').state!.nextSingleAt).toBe(at + 1000);
  });

  it("keeps each organisation's gates in its own ledger: the same integration id elsewhere is another gate", async () => {
    const [a, b] = [await newOrg('ga'), await newOrg('gb')];
    const now = Date.now();
    const gate = { id: 42, maxRate: 10, heldUntil: 0, throttleLevel: 0 };
    expect(await reserveSends(await gateLedger(E, db(), a.orgId), gate, 10, 'bulk', now)).toEqual({ granted: true, waitMs: 0 });
    expect(await reserveSends(await gateLedger(E, db(), a.orgId), gate, 10, 'bulk', now)).toEqual({ granted: true, waitMs: 1000 });
    expect(await reserveSends(await gateLedger(E, db(), b.orgId), gate, 10, 'bulk', now)).toEqual({ granted: true, waitMs: 0 });
    // Concurrent reservations never share a slot.
    const ledgerB = await gateLedger(E, db(), b.orgId);
    const waits = await Promise.all(Array.from({ length: 8 }, () => reserveSends(ledgerB, { ...gate, id: 43 }, 1, 'bulk', now)));
    expect(waits.map((w) => (w.granted ? w.waitMs : -1)).sort((x, y) => x - y)).toEqual([0, 100, 200, 300, 400, 500, 600, 700]);
  });
});
