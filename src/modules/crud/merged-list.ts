import { asc, desc, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import type { TenantTable } from '../../db/tenant-scope';
import { validationFailed } from '../../lib/api-error';
import { totalQuery, type KeptCount } from '../stats/list-counts';

// One page of a list whose rows are spread over several stores: an organisation's ledgers once the size guard opened
// a second generation (src/modules/ledger/registry.ts). Lists in one store never come here. Two ways:
// - sorted by id with exact totals: the generations hold disjoint id ranges (a later one the higher ids), so the list
//   is their concatenation and the page is read from the one or two stores it falls in, at any depth;
// - otherwise each store gives the ids and sort values of its first (offset + page) matches, these are merged as
//   SQLite would order them (NULLs first ascending, numbers before text), and the page's rows are read by id. That
//   costs O(offset) per store, so it stops at MERGE_DEPTH_MAX (a filtered list's total is capped below that anyway).

/** How deep into a list the merge of several stores goes (rows before the page's end). */
export const MERGE_DEPTH_MAX = 100_000;

export interface MergedPageQuery {
  orgId: number;
  where: SQL;
  /** The sort column (a column of the table) and its direction; ties are ordered by id the same way. */
  sort: SQLiteColumn;
  descending: boolean;
  page: number;
  pageSize: number;
  /** The kept count that is the list's exact total, or null to count up to `cap`. */
  kept: KeptCount | null;
  cap: number;
}

type Row = Record<string, unknown>;

/** The page's rows and the list's total (as the single-store list counts it) across `stores`, newest generation first. */
export async function mergedListPage(table: TenantTable, stores: Database[], q: MergedPageQuery): Promise<{ total: number; rows: Row[] }> {
  const t = table as unknown as SQLiteTable;
  const order = q.descending ? desc : asc;
  const offset = (q.page - 1) * q.pageSize;
  const totals = await Promise.all(
    stores.map(async (db) => {
      const [row] = await totalQuery(
        db,
        q.orgId,
        q.kept,
        () =>
          db
            .select({ one: sql<number>`1`.as('one') })
            .from(t)
            .where(q.where),
        q.cap,
      );
      return Number(row?.total ?? 0);
    }),
  );
  const total = totals.reduce((a, b) => a + b, 0);
  const page = (db: Database, skip: number, limit: number) =>
    db.select().from(t).where(q.where).orderBy(order(q.sort), order(table.id)).limit(limit).offset(skip) as Promise<Row[]>;

  if (q.sort === table.id && q.kept) {
    // Newest generation first holds the highest ids: descending reads them in that order, ascending the other way.
    const inOrder = q.descending ? stores.map((db, i) => ({ db, n: totals[i] })) : stores.map((db, i) => ({ db, n: totals[i] })).reverse();
    const rows: Row[] = [];
    let skip = offset;
    for (const { db, n } of inOrder) {
      if (rows.length >= q.pageSize) break;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      rows.push(...(await page(db, skip, q.pageSize - rows.length)));
      skip = 0;
    }
    return { total, rows };
  }

  if (offset + q.pageSize > MERGE_DEPTH_MAX) {
    throw validationFailed({
      page: [
        `Pages beyond the first ${MERGE_DEPTH_MAX.toLocaleString('en')} rows in this order are not available: sort by date, or narrow the list with a filter or a search`,
      ],
    });
  }
  const heads = await Promise.all(
    stores.map(async (db, store) => {
      const rows = (await db
        .select({ id: table.id, key: q.sort })
        .from(t)
        .where(q.where)
        .orderBy(order(q.sort), order(table.id))
        .limit(offset + q.pageSize)) as { id: number; key: unknown }[];
      return rows.map((r) => ({ ...r, store }));
    }),
  );
  const sign = q.descending ? -1 : 1;
  const chosen = heads
    .flat()
    .sort((a, b) => sign * (compareSqlite(a.key, b.key) || compareSqlite(a.id, b.id)))
    .slice(offset, offset + q.pageSize);
  const fetched = await Promise.all(
    stores.map((db, store) => {
      const ids = chosen.filter((c) => c.store === store).map((c) => c.id);
      return ids.length
        ? (db
            .select()
            .from(t)
            .where(sql`${q.where} AND ${table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`) as Promise<Row[]>)
        : [];
    }),
  );
  const byId = new Map(fetched.flat().map((r) => [r.id as number, r]));
  return { total, rows: chosen.map((c) => byId.get(c.id)).filter((r): r is Row => r !== undefined) };
}

/** SQLite's order of values: NULL, then numbers (booleans are 0/1), then text (byte order: code points). */
export function compareSqlite(a: unknown, b: unknown): number {
  const rank = (v: unknown) => (v === null || v === undefined ? 0 : typeof v === 'number' || typeof v === 'boolean' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1) return Number(a) - Number(b);
  const sa = [...String(a)].map((ch) => ch.codePointAt(0)!);
  const sb = [...String(b)].map((ch) => ch.codePointAt(0)!);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) if (sa[i] !== sb[i]) return sa[i] - sb[i];
  return sa.length - sb.length;
}
