import type { ListResponse } from '@shared/list';
import { PAGE_SIZE_MAX } from '@shared/list';
import { useCallback, useMemo } from 'react';
import useSWR, { unstable_serialize, type ScopedMutator, type SWRConfiguration } from 'swr';
import { useServices } from '../../lib/services-context';
import type { ApiClient } from '../../lib/api-client';
import { useListRevision } from '../../lib/list-revision';
import type { EntityListState, ListQuery } from './types';

/** Every item of a collection: pages of the largest size, fetched one after another until the last. */
export async function fetchAllPages<T>(client: ApiClient, path: string, query: Record<string, unknown> = {}): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const body = await client.get<ListResponse<T>>(path, { ...query, page, page_size: PAGE_SIZE_MAX });
    items.push(...body.items);
    if (page >= body.meta.total_pages || body.items.length === 0) return items;
  }
}

/** Compares two cell values for sorting: numbers as numbers, the rest as text in the user's collation. */
export function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''), undefined, { numeric: true, sensitivity: 'base' });
}

/** Searches (case-insensitive, any of the keys contains the text) and sorts rows in the browser. */
export function searchAndSort<T>(items: T[], query: Pick<ListQuery, 'search' | 'sort_by' | 'sort_order'>, searchKeys: (keyof T)[]): T[] {
  const needle = (query.search ?? '').trim().toLowerCase();
  const found = needle
    ? items.filter((item) =>
        searchKeys.some((key) =>
          String(item[key] ?? '')
            .toLowerCase()
            .includes(needle),
        ),
      )
    : items.slice();
  const key = query.sort_by as keyof T;
  const direction = query.sort_order === 'desc' ? -1 : 1;
  return found.sort((a, b) => direction * compareValues(a[key], b[key]));
}

/** Query keys that are not filters (search, paging, order). */
const NOT_FILTERS = new Set(['search', 'sort_by', 'sort_order', 'page', 'page_size']);

/** The rows whose values equal every filter of the query (as the API's equality filters do, e.g. ?type=smtp). */
export function applyFilters<T>(items: T[], query: Record<string, unknown>): T[] {
  const filters = Object.entries(query).filter(([key, value]) => !NOT_FILTERS.has(key) && value !== undefined && value !== '');
  if (filters.length === 0) return items;
  return items.filter((item) => filters.every(([key, value]) => String((item as Record<string, unknown>)[key]) === String(value)));
}

/**
 * Every row of a collection (all pages, optionally filtered or ordered by `query`) in SWR, refetched when the
 * collection's list revision changes. The one loader behind client-side lists and the "all tags/fields/..." selects.
 */
export function useAllRows<T>(path: string, query: Record<string, unknown> = {}, options: SWRConfiguration<T[]> = {}) {
  const { client } = useServices();
  const revision = useListRevision(path);
  const key = allRowsKey(path, query, revision);
  // Rows preloaded at start (/init/user) are not fetched again on mount while they are in the cache (an empty cache,
  // e.g. after a sign-out, still fetches); a change to the collection (a new revision) or a focus fetches them.
  const preloaded = PRELOADED.has(unstable_serialize(key));
  return useSWR<T[]>(key, () => fetchAllPages<T>(client, path, query), {
    keepPreviousData: true,
    ...(preloaded ? { revalidateIfStale: false } : {}),
    ...options,
  });
}

/** The cache key of every row of a collection (with its list revision). */
function allRowsKey(path: string, query: Record<string, unknown>, revision: number) {
  return [path, { all: true, ...query }, revision] as const;
}

/** Keys whose rows came with /init/user. */
const PRELOADED = new Set<string>();

/** Puts a collection's rows, preloaded at start, where useAllRows(path) reads them at the collection's revision. */
export function preloadRows<T>(mutate: ScopedMutator, path: string, rows: T[], revision: number): void {
  const key = allRowsKey(path, {}, revision);
  PRELOADED.add(unstable_serialize(key));
  void mutate(key, rows, { revalidate: false });
}

/**
 * A list that is not server-paged (spec: field and integration lists): every row is loaded once, then filters,
 * search and sort run in the browser. The state has the same shape as the paged hook, so ListScreen shows either.
 */
export function useClientList<T extends { id: number }>(
  path: string,
  query: ListQuery,
  searchKeys: (keyof T)[],
  options: SWRConfiguration<T[]> = {},
): EntityListState<T> {
  const { data, error, isLoading, isValidating, mutate } = useAllRows<T>(path, {}, options);
  const { search, sort_by: sortBy, sort_order: order } = query;
  const filtersJson = JSON.stringify(query);
  const items = useMemo(
    () =>
      searchAndSort(applyFilters(data ?? [], JSON.parse(filtersJson) as Record<string, unknown>), { search, sort_by: sortBy, sort_order: order }, searchKeys),
    [data, search, sortBy, order, searchKeys, filtersJson],
  );

  const showOrder = useCallback(
    (next: T[]) => {
      // The rows keep the sorted column's values between them in the new order (priorities change hands),
      // so the browser-side sort shows the new order until the server's answer replaces it.
      if (!data) return;
      const key = sortBy as keyof T;
      const slots = next.map((row) => row[key]).sort(compareValues);
      if (order === 'desc') slots.reverse();
      const moved = new Map(next.map((row, i) => [row.id, { ...row, [key]: slots[i] }]));
      void mutate(
        data.map((row) => moved.get(row.id) ?? row),
        { revalidate: false },
      );
    },
    [data, mutate, sortBy, order],
  );

  return {
    items,
    total: items.length,
    isLoading,
    isLoadingMore: false,
    isValidating,
    error,
    hasMore: false,
    loadMore: () => undefined,
    refresh: () => mutate(),
    showOrder,
  };
}
