// Overflow generations (src/modules/ledger/registry.ts, size-guard.ts): when the size guard finds an organisation's
// newest ledger past its mark it opens the next; new broadcasts go there, a running one finishes where it started,
// and everything the console shows reads every generation: the message list (pages across them, in any order),
// a message by its id, the broadcast views, tracking and the dashboard.
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { ID_BLOCK } from '../../../src/modules/ledger/ids';
import { measureLedgers } from '../../../src/modules/ledger/size-guard';
import { countHits } from '../../../src/modules/tracking/count';
import type { TrackingHit } from '../../../src/modules/tracking/hit';
import { compareSqlite } from '../../../src/modules/crud/merged-list';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { insertContact } from '../channel-helpers';

const db = () => createDb(E.DB);
const blockOf = (id: number) => Math.floor(id / ID_BLOCK);

type Listed = { id: number; to_address: string; status: string; broadcast_id: number | null };

/** Every page of a list, in order, `size` at a time. */
async function allPages(api: (m: string, p: string) => Promise<{ status: number; body: any }>, query: string, size: number) {
  const items: Listed[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await api('GET', `/message?${query}&page=${page}&page_size=${size}`);
    expect(res.status).toBe(200);
    total = res.body.meta.total;
    items.push(...res.body.items);
    if (page >= res.body.meta.total_pages) break;
  }
  return { items, total };
}

describe('overflow generations', () => {
  it('opens the next ledger at the mark; new broadcasts go there, a running one stays, and every read spans both', async () => {
    const s = await setup('gen');
    // More recipients, so pages of 5 cross from one generation into the other.
    for (let i = 0; i < 3; i++) {
      const id = await insertContact(s.o.orgId, `Eve ${i}`, [{ type: 'email', value: `eve${i}@example.com` }]);
      await E.DB.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)').bind(s.o.orgId, id, s.tag.id).run();
    }
    // A broadcast sent in the first generation, and one started there but not sent yet.
    const first = await startable(s.o, s.body({ name: 'First' }));
    await deliverAll(await runAlarm(s.o, first));
    await runAlarm(s.o, first);
    const running = await startable(s.o, s.body({ name: 'Running' }));
    const runningBatches = await runAlarm(s.o, running);
    expect(runningBatches.length).toBeGreaterThan(0);

    // The size guard finds the ledger past a mark of 1 byte: the second generation opens, once.
    expect(await measureLedgers(E, db(), 1)).toBeGreaterThan(0);
    const registry = () =>
      E.DB.prepare('SELECT generation, ready FROM ledgers WHERE org_id = ? ORDER BY generation').bind(s.o.orgId).all<{ generation: number; ready: number }>();
    expect((await registry()).results).toEqual([
      { generation: 0, ready: 1 },
      { generation: 1, ready: 1 },
    ]);
    await E.DB.prepare('UPDATE ledgers SET measured_at = NULL WHERE org_id = ? AND generation = 0').bind(s.o.orgId).run();
    await measureLedgers(E, db(), 1);
    // The first generation is no longer the newest: measuring it again opens nothing more (the second, measured for
    // the first time in that run, opens a third: the mark of 1 byte is passed by every ledger).
    expect((await registry()).results.filter((r) => r.generation === 1)).toHaveLength(1);

    // The running broadcast finishes in the first generation.
    await deliverAll(runningBatches);
    await runAlarm(s.o, running);
    // A new broadcast starts in the newest generation.
    const newest = Number((await registry()).results.at(-1)!.generation);
    const next = await startable(s.o, s.body({ name: 'Next' }));
    await deliverAll(await runAlarm(s.o, next));
    await runAlarm(s.o, next);
    const generations = await E.DB.prepare('SELECT id, ledger_generation AS g FROM broadcasts WHERE org_id = ? ORDER BY id')
      .bind(s.o.orgId)
      .all<{ id: number; g: number }>();
    expect(generations.results).toEqual([
      { id: first, g: 0 },
      { id: running, g: 0 },
      { id: next, g: newest },
    ]);
    for (const id of [first, running, next]) {
      const view = (await s.o.api('GET', `/broadcast/${id}`)).body.data;
      expect(view).toMatchObject({ status: 'finished', total: 7, sent: 6, skipped: 1 });
    }

    // The message list: all 21 messages, paged across the generations in the default order and in another.
    const everything = await allPages(s.o.api, 'sort_by=created_at&sort_order=desc', 100);
    expect(everything.total).toBe(21);
    expect(everything.items.map((m) => m.id)).toEqual([...everything.items.map((m) => m.id)].sort((a, b) => b - a));
    const ids = (list: Listed[]) => list.map((m) => m.id);
    const byBlock = new Set(everything.items.map((m) => blockOf(m.id)));
    expect(byBlock.size).toBe(2);
    for (const size of [5, 4]) expect(ids((await allPages(s.o.api, 'sort_by=created_at&sort_order=desc', size)).items)).toEqual(ids(everything.items));
    const ascending = await allPages(s.o.api, 'sort_by=created_at&sort_order=asc', 5);
    expect(ids(ascending.items)).toEqual(ids(everything.items).reverse());
    const byAddress = await allPages(s.o.api, 'sort_by=to_address&sort_order=asc', 5);
    const expected = [...everything.items].sort((a, b) => compareSqlite(a.to_address, b.to_address) || a.id - b.id);
    expect(ids(byAddress.items)).toEqual(ids(expected));
    expect(byAddress.total).toBe(21);
    // A filter counts in every generation; one broadcast's total is its ledger's kept count.
    expect((await allPages(s.o.api, 'status=sent', 5)).total).toBe(18);
    expect((await allPages(s.o.api, `broadcast_id=${next}`, 5)).total).toBe(7);
    expect((await allPages(s.o.api, `broadcast_id=${running}`, 5)).total).toBe(7);

    // A message of each generation by its id, with its engagement; hits counted in the ledger their message is in.
    const old = everything.items.find((m) => m.broadcast_id === first && m.status === 'sent')!;
    const fresh = everything.items.find((m) => m.broadcast_id === next && m.status === 'sent')!;
    for (const m of [old, fresh]) {
      expect((await s.o.api('GET', `/message/${m.id}`)).body.data).toMatchObject({ id: m.id, to_address: m.to_address });
    }
    const hit = (m: Listed, n: number): TrackingHit => ({
      id: `gen-hit-${m.id}-${n}`,
      o: s.o.orgId,
      m: m.id,
      kind: 'open',
      method: 'GET',
      ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      address: '203.0.113.9',
      asn: null,
      aso: null,
      at: new Date().toISOString(),
    });
    const hits = [hit(old, 1), hit(fresh, 1), hit(fresh, 2)];
    await countHits(E, db(), hits);
    await countHits(E, db(), hits);
    expect((await s.o.api('GET', `/message/${old.id}/engagement`)).body.data.hits).toHaveLength(1);
    expect((await s.o.api('GET', `/message/${fresh.id}/engagement`)).body.data.hits).toHaveLength(2);
    expect((await s.o.api('GET', `/broadcast/${first}`)).body.data).toMatchObject({ opens: 1 });
    expect((await s.o.api('GET', `/broadcast/${next}`)).body.data).toMatchObject({ opens: 2 });

    // The dashboard's day adds up the generations: 18 sent, 3 opens.
    const today = (await s.o.api('GET', '/dashboard')).body.data;
    const day = today.days.at(-1);
    expect(day).toMatchObject({ emails_sent: 18, opens: 3 });

    // A bulk delete by ids reaches each generation; deleting everything pages through them all.
    const gone = await s.o.api('DELETE', '/message', { ids: [old.id, fresh.id] });
    expect(gone.body.data).toMatchObject({ deleted: 2 });
    expect((await s.o.api('GET', `/message/${old.id}`)).status).toBe(404);
    expect((await s.o.api('GET', `/message/${fresh.id}`)).status).toBe(404);
    let rounds = 0;
    for (let more = true; more && rounds < 10; rounds++) more = (await s.o.api('DELETE', '/message', { all: true, page_size: 5 })).body.data.more;
    expect((await s.o.api('GET', '/message')).body.meta.total).toBe(0);
  });
});
