import { or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { TenantScope, TenantTable } from '../../db/tenant-scope';

export interface ListFilter {
  search?: string;
  ids?: number[];
  [key: string]: unknown;
}

/** `column LIKE %text%` over every searchable column, with LIKE wildcards in the text taken literally. */
export function searchCondition(columns: SQLiteColumn[], text: string | undefined): SQL | undefined {
  if (!text || columns.length === 0) return undefined;
  const pattern = `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return or(...columns.map((column) => sql`${column} LIKE ${pattern} ESCAPE '\\'`));
}

/** The condition a list and a bulk delete share: organisation, search, ids, and the entity's own filters. */
export function filterCondition<T extends TenantTable>(
  scope: TenantScope<T>,
  searchColumns: SQLiteColumn[],
  filter: ListFilter,
  extra?: (filter: ListFilter) => (SQL | undefined)[],
): SQL {
  return scope.where(searchCondition(searchColumns, filter.search), filter.ids?.length ? scope.idIn(filter.ids) : undefined, ...(extra ? extra(filter) : []));
}
