import { and, count, eq, sql, type Subquery } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ListMeta } from '../../shared/list';
import { listCounts } from '../../db/schema';

// How a list knows its meta.total without counting the table on every page (issue: lists at a million rows).
// The whole contact list, one tag, the whole message list and one broadcast's messages read a count that the
// migration's triggers keep in the same write as the rows (list_counts). Any other filter or a search is counted
// up to a cap: past it the answer says `total_capped` ("more than 10,000") rather than making every page pay for
// counting a million matches. The cron's repair recomputes the kept counts and reports any drift.

type CountedList = 'contacts' | 'tag' | 'messages' | 'broadcast_messages';

/** One kept count: which list, and its key (0, or the tag or broadcast id). */
export interface KeptCount {
  list: CountedList;
  key: number;
}

/**
 * Which kept counts are a list's exact total: the whole list's, and (per) the count kept for each value of one
 * filter, e.g. each tag's contacts. Any other filter, a search or ids make the list counted up to the cap.
 */
export interface KeptTotals {
  whole: CountedList;
  per?: { filter: string; list: CountedList };
}

const isSet = (value: unknown) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * The kept count that is the exact total of a list query, or null. It looks at every filter the list has
 * (`filterNames`, plus search and ids), so a filter added later is never read as the unfiltered total.
 */
export function keptTotalOf(totals: KeptTotals, filterNames: string[], query: Record<string, unknown>): KeptCount | null {
  const set = [...filterNames, 'search', 'ids'].filter((name) => isSet(query[name]));
  if (set.length === 0) return { list: totals.whole, key: 0 };
  if (!totals.per || set.length > 1 || set[0] !== totals.per.filter) return null;
  const value = query[totals.per.filter];
  // One tag's count, not several tags' (their contacts overlap).
  const key = Array.isArray(value) ? (value.length === 1 ? value[0] : null) : value;
  return typeof key === 'number' ? { list: totals.per.list, key } : null;
}

/** How many matches a filtered list counts before it stops and says there are more (LIST_TOTAL_CAP overrides). */
const LIST_TOTAL_CAP = 10_000;

export function listTotalCap(env: { LIST_TOTAL_CAP?: string }): number {
  const cap = Number(env.LIST_TOTAL_CAP);
  return Number.isInteger(cap) && cap > 0 ? cap : LIST_TOTAL_CAP;
}

/** The kept count as a one-row query ({ total }: 0 when the organisation has none yet), for a batch. */
export function keptCountQuery(db: Database, orgId: number, count: KeptCount) {
  return db
    .select({ total: sql<number>`coalesce(max(${listCounts.n}), 0)` })
    .from(listCounts)
    .where(and(eq(listCounts.orgId, orgId), eq(listCounts.list, count.list), eq(listCounts.key, count.key)));
}

/**
 * The one-row { total } query of a list page: its kept count when it has one, else a count of `matches` (a select
 * of the matching rows, e.g. `db.select({ one: sql`1`.as('one') }).from(t).where(w)`) that stops past the cap.
 */
export function totalQuery(db: Database, orgId: number, kept: KeptCount | null, matches: () => CappableSelect, cap: number) {
  if (kept) return keptCountQuery(db, orgId, kept);
  return db.select({ total: count() }).from(
    matches()
      .limit(cap + 1)
      .as('matches'),
  );
}

/** A select of matching rows that can be limited and used as a subquery. */
type CappableSelect = { limit(n: number): { as(alias: string): Subquery } };

/** A list page's meta from what the total query answered: total_capped (total = the cap) when it stopped there. */
export function listMeta(counted: number | undefined, kept: KeptCount | null, cap: number, page: number, pageSize: number): ListMeta {
  const n = Number(counted ?? 0);
  const total = !kept && n > cap ? { total: cap, total_capped: true as const } : { total: n };
  return { ...total, page, page_size: pageSize, total_pages: Math.ceil(total.total / pageSize) };
}

/** A kept count that differed from the rows, as the repair found it. */
export interface CountDrift {
  org_id: number;
  list: CountedList;
  key: number;
  kept: number;
  actual: number;
}

/** Each list's actual counts, as SQL (org_id, list, key, n): the contacts' lists are in D1, the messages' in both. */
const CONTACT_COUNTS = sql`
  SELECT org_id, 'contacts' AS list, 0 AS key, count(*) AS n FROM contacts GROUP BY org_id
  UNION ALL SELECT org_id, 'tag', tag_id, count(*) FROM contact_tags GROUP BY org_id, tag_id`;
const MESSAGE_COUNTS = sql`
  SELECT org_id, 'messages' AS list, 0 AS key, count(*) AS n FROM messages GROUP BY org_id
  UNION ALL SELECT org_id, 'broadcast_messages', broadcast_id, count(*) FROM messages WHERE broadcast_id IS NOT NULL GROUP BY org_id, broadcast_id`;

/** Which kept counts a store holds: D1 all four (its messages are the ones made before the ledgers), a ledger the messages'. */
export type CountedStore = 'd1' | 'ledger';
const actualCounts = (store: CountedStore) => (store === 'd1' ? sql`${CONTACT_COUNTS} UNION ALL ${MESSAGE_COUNTS}` : MESSAGE_COUNTS);

/**
 * Recomputes every kept count of the store from its rows and returns where it had drifted (nothing, when the
 * triggers did their job). It scans the tables, so it runs once a day. The fix is one batch (a transaction in D1 and in
 * a ledger), so no write can slip between the recount and the correction.
 */
export async function repairListCounts(db: Database, store: CountedStore = 'd1'): Promise<CountDrift[]> {
  const actual = actualCounts(store);
  const drift = await db.all<CountDrift>(sql`
    WITH actual AS (${actual})
    SELECT a.org_id, a.list, a.key, coalesce(k.n, 0) AS kept, a.n AS actual FROM actual a
      LEFT JOIN list_counts k ON k.org_id = a.org_id AND k.list = a.list AND k.key = a.key
      WHERE coalesce(k.n, 0) <> a.n
    UNION ALL
    SELECT k.org_id, k.list, k.key, k.n, 0 FROM list_counts k
      WHERE k.n <> 0 AND NOT EXISTS (SELECT 1 FROM actual a WHERE a.org_id = k.org_id AND a.list = k.list AND a.key = k.key)`);
  if (drift.length === 0) return [];
  // Only the rows that differ are written: counts whose rows are all gone go to 0, the rest take the recount.
  await db.batch([
    db.run(sql`UPDATE list_counts SET n = 0 WHERE n <> 0 AND (org_id, list, key) NOT IN (SELECT org_id, list, key FROM (${actual}))`),
    db.run(sql`INSERT INTO list_counts (org_id, list, key, n) SELECT org_id, list, key, n FROM (${actual}) WHERE true
      ON CONFLICT (org_id, list, key) DO UPDATE SET n = excluded.n WHERE list_counts.n <> excluded.n`),
  ]);
  return drift;
}

/** The cron's daily repair (in the first quarter hour after 03:00 UTC), logging what drifted. */
export async function repairListCountsIfDue(db: Database, now = new Date()): Promise<void> {
  if (now.getUTCHours() !== 3 || now.getUTCMinutes() >= 15) return;
  const drift = await repairListCounts(db);
  if (drift.length) console.error(`list counts drifted and were repaired: ${JSON.stringify(drift.slice(0, 50))}`);
}
