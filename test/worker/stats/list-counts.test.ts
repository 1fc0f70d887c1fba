import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../../src/db/client';
import { keptTotalOf, repairListCounts } from '../../../src/modules/stats/list-counts';
import { recountLedgers } from '../../../src/modules/ledger/recount';
import { appFetch, ledgerSql } from '../helpers';
import { api, create, list, newSession, rows, type Session } from '../api-helpers';

// Lists at a million rows (issue: lists that cost what a page costs): the whole contact list, one tag and the
// whole message list (and one broadcast's) answer meta.total from counts kept in the same write as the rows
// (migration triggers), never by counting the table; other filters count up to a cap and say when there are
// more. A repair job recomputes the kept counts and reports drift.

let s: Session;
beforeEach(async () => {
  s = await newSession('lc');
});

const kept = async (orgId: number, listName: string, key = 0) => {
  const query = 'SELECT n FROM list_counts WHERE org_id = ? AND list = ? AND key = ?';
  // The message lists are counted where the messages are: the organisation's ledger (src/modules/ledger).
  if (listName === 'messages' || listName === 'broadcast_messages') {
    return (await (await ledgerSql(orgId)).prepare(query).bind(orgId, listName, key).first<{ n: number }>())?.n ?? 0;
  }
  return (await rows<{ n: number }>(query, orgId, listName, key))[0]?.n ?? 0;
};
const email = (value: string) => ({ type: 'email', value });

describe('kept counts', () => {
  it('follow every way contacts and tags come and go, in the same write', async () => {
    const vip = await create(s, 'tag', { name: 'VIP' });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(s, 'contact', { name: `C${i}`, addresses: [email(`c${i}@lc.test`)], tags: i < 3 ? [vip.id] : [] })).id);
    expect(await kept(s.orgId, 'contacts')).toBe(5);
    expect(await kept(s.orgId, 'tag', vip.id)).toBe(3);

    // Untag one by update, delete one tagged contact alone and one in bulk.
    await api(s, 'PUT', `/contact/${ids[0]}`, { name: 'C0', addresses: [email('c0@lc.test')], tags: [] });
    await api(s, 'DELETE', `/contact/${ids[1]}`);
    await api(s, 'DELETE', '/contact', { ids: [ids[3]] });
    expect(await kept(s.orgId, 'contacts')).toBe(3);
    expect(await kept(s.orgId, 'tag', vip.id)).toBe(1);

    const page = await list(s, 'contact');
    expect(page.meta).toEqual({ total: 3, page: 1, page_size: 10, total_pages: 1 });
    expect((await list(s, 'contact', `?tags=${vip.id}`)).meta.total).toBe(1);

    // Deleting the tag takes its count with it; another organisation's counts never move.
    const other = await newSession('lco');
    await create(other, 'contact', { name: 'Elsewhere', addresses: [email('x@lco.test')] });
    await api(s, 'DELETE', `/tag/${vip.id}`);
    expect(await rows('SELECT * FROM list_counts WHERE org_id = ? AND list = ?', s.orgId, 'tag')).toEqual([]);
    expect(await kept(other.orgId, 'contacts')).toBe(1);
    expect(await kept(s.orgId, 'contacts')).toBe(3);
  });

  it('answer the whole list from the kept count, not a count of the rows (proved by a count that was tampered with)', async () => {
    for (let i = 0; i < 3; i++) await create(s, 'contact', { name: `T${i}`, addresses: [email(`t${i}@lc.test`)] });
    await env.DB.prepare("UPDATE list_counts SET n = 42 WHERE org_id = ? AND list = 'contacts'").bind(s.orgId).run();
    expect((await list(s, 'contact')).meta.total).toBe(42);
    // A search is counted (capped), so it is exact here.
    expect((await list(s, 'contact', '?search=T1')).meta.total).toBe(1);

    // The repair job puts it right and says by how much it had drifted.
    const drift = await repairListCounts(createDb(env.DB));
    expect(drift).toContainEqual({ org_id: s.orgId, list: 'contacts', key: 0, kept: 42, actual: 3 });
    expect((await list(s, 'contact')).meta.total).toBe(3);
    expect(await repairListCounts(createDb(env.DB))).toEqual([]);
  });

  it('count messages per organisation and per broadcast as they are written and removed', async () => {
    const insert = async (broadcastId: number | null) =>
      (await ledgerSql(s.orgId))
        .prepare(
          "INSERT INTO messages (org_id, type, status, broadcast_id, from_address, to_address, body) VALUES (?, 'email', 'sent', ?, 'a@lc.test', 'b@lc.test', 'x')",
        )
        .bind(s.orgId, broadcastId)
        .run();
    await insert(null);
    await insert(7);
    await insert(7);
    expect(await kept(s.orgId, 'messages')).toBe(3);
    expect(await kept(s.orgId, 'broadcast_messages', 7)).toBe(2);
    expect((await list(s, 'message')).meta.total).toBe(3);
    expect((await list(s, 'message', '?broadcast_id=7')).meta.total).toBe(2);
    await (await ledgerSql(s.orgId)).prepare('DELETE FROM messages WHERE org_id = ? AND broadcast_id = 7').bind(s.orgId).run();
    expect(await kept(s.orgId, 'messages')).toBe(1);
    expect(await kept(s.orgId, 'broadcast_messages', 7)).toBe(0);
  });
});

describe("the ledgers' recount", () => {
  it("puts a ledger's drifted message counts right once a day, logging the drift, and leaves other ledgers' alone", async () => {
    const insert = async (orgId: number, broadcastId: number | null) =>
      (await ledgerSql(orgId))
        .prepare(
          "INSERT INTO messages (org_id, type, status, broadcast_id, from_address, to_address, body) VALUES (?, 'email', 'sent', ?, 'a@lc.test', 'b@lc.test', 'x')",
        )
        .bind(orgId, broadcastId)
        .run();
    const other = await newSession('lcr');
    for (const b of [null, 9, 9]) await insert(s.orgId, b);
    await insert(other.orgId, 9);
    const ledger = await ledgerSql(s.orgId);
    // Drift both ways: a count too high, and one whose rows are all gone.
    await ledger.prepare("UPDATE list_counts SET n = 40 WHERE org_id = ? AND list = 'messages'").bind(s.orgId).run();
    await ledger.prepare("INSERT INTO list_counts (org_id, list, key, n) VALUES (?, 'broadcast_messages', 77, 5)").bind(s.orgId).run();
    expect((await list(s, 'message')).meta.total).toBe(40);

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const db = createDb(env.DB);
    try {
      await recountLedgers(env, db, 100_000);
      const line = logged.mock.calls.map((c) => String(c[0])).find((l) => l.includes('recountLedgers') && l.includes(`"org_id":${s.orgId}`));
      expect(JSON.parse(line!).drifted).toEqual(
        expect.arrayContaining([
          { org_id: s.orgId, list: 'messages', key: 0, kept: 40, actual: 3 },
          { org_id: s.orgId, list: 'broadcast_messages', key: 77, kept: 5, actual: 0 },
        ]),
      );
    } finally {
      logged.mockRestore();
    }
    expect((await list(s, 'message')).meta.total).toBe(3);
    expect(await kept(s.orgId, 'broadcast_messages', 77)).toBe(0);
    expect(await kept(s.orgId, 'broadcast_messages', 9)).toBe(2);
    expect(await kept(other.orgId, 'messages')).toBe(1);

    // Recounted today: the next runs leave it until a day has passed.
    await ledger.prepare("UPDATE list_counts SET n = 41 WHERE org_id = ? AND list = 'messages'").bind(s.orgId).run();
    await recountLedgers(env, db, 100_000);
    expect(await kept(s.orgId, 'messages')).toBe(41);
    await env.DB.prepare("UPDATE ledgers SET counted_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-25 hours') WHERE org_id = ?").bind(s.orgId).run();
    await recountLedgers(env, db, 100_000);
    expect(await kept(s.orgId, 'messages')).toBe(3);
  });
});

describe('which kept count is a list total', () => {
  const contactsTotals = { whole: 'contacts', per: { filter: 'tags', list: 'tag' } } as const;
  const filters = ['tags', 'address', 'attributes', 'new_filter'];

  it('is the whole list with no filter, and one tag for one tag', () => {
    expect(keptTotalOf(contactsTotals, filters, { page: 2, sort_by: 'name', search: '', tags: [] })).toEqual({ list: 'contacts', key: 0 });
    expect(keptTotalOf(contactsTotals, filters, { tags: [7] })).toEqual({ list: 'tag', key: 7 });
  });

  it('is none with a search, ids, several tags, or any other filter of the list, one added later included', () => {
    for (const query of [{ search: 'ann' }, { ids: [1] }, { tags: [7, 8] }, { tags: [7], address: 'x' }, { new_filter: 'x' }, { new_filter: 0 }]) {
      expect(keptTotalOf(contactsTotals, filters, query), JSON.stringify(query)).toBeNull();
    }
  });
});

describe('counts past the cap', () => {
  it('stop counting a filtered list at the cap and say that there are more', async () => {
    for (let i = 0; i < 6; i++) await create(s, 'contact', { name: `Many ${i}`, addresses: [email(`many${i}@lc.test`)] });
    const get = async (query: string) => {
      const res = await appFetch(
        new Request(`http://${s.org}.localhost:8787/api/v1/contact${query}`, {
          headers: { host: `${s.org}.localhost:8787`, authorization: `Bearer ${s.token}` },
        }),
        {
          env: { LIST_TOTAL_CAP: '4' } as never,
        },
      );
      return (await res.json<any>()).meta;
    };
    // Filtered (a search): at most the cap, flagged.
    expect(await get('?search=many&page_size=2')).toEqual({ total: 4, total_capped: true, page: 1, page_size: 2, total_pages: 2 });
    // Under the cap: exact, no flag. The whole list: the kept count, exact whatever the cap.
    expect(await get('?search=many3')).toEqual({ total: 1, page: 1, page_size: 10, total_pages: 1 });
    expect(await get('')).toEqual({ total: 6, page: 1, page_size: 10, total_pages: 1 });
  });
});
