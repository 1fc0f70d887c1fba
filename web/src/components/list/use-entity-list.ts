import type { ListResponse } from '@shared/list';

/** Whether a page follows this one: by the total, or, when the total stopped at its cap, while pages come full. */
export function pageFollows(page: ListResponse<unknown>): boolean {
  if (page.meta.page < page.meta.total_pages) return true;
  return Boolean(page.meta.total_capped) && page.items.length === page.meta.page_size;
}
import { useCallback } from 'react';
import useSWRInfinite from 'swr/infinite';
import { useListRevision } from '../../lib/list-revision';
import { regroup } from './reorder';
import type { EntityListState, ListQuery } from './types';

/** Server-paged list data with "load more": each next page is appended (SWR infinite over GET {path}?page=N). */
export function useEntityList<T>(path: string, query: ListQuery): EntityListState<T> {
  const revision = useListRevision(path);
  const { data, error, isLoading, isValidating, size, setSize, mutate } = useSWRInfinite<ListResponse<T>>(
    (index, previous: ListResponse<T> | null) => {
      if (previous && !pageFollows(previous)) return null;
      return [path, { ...query, page: index + 1 }, revision] as const;
    },
    { revalidateOnMount: true, revalidateFirstPage: true, keepPreviousData: true },
  );
  const pages = data ?? [];
  const items = pages.flatMap((page) => page.items);
  const total = pages[0]?.meta.total ?? 0;
  const lastPage = pages[pages.length - 1];
  const hasMore = Boolean(lastPage && pageFollows(lastPage));

  const showOrder = useCallback(
    (next: T[]) => {
      if (!data) return;
      const sizes = data.map((page) => page.items.length);
      void mutate(
        regroup(next, sizes).map((pageItems, i) => ({ ...data[i], items: pageItems })),
        { revalidate: false },
      );
    },
    [data, mutate],
  );

  return {
    items,
    total,
    totalCapped: Boolean(pages[0]?.meta.total_capped),
    isLoading,
    isLoadingMore: isValidating && size > pages.length,
    isValidating,
    error,
    hasMore,
    loadMore: () => void setSize(size + 1),
    refresh: () => mutate(),
    showOrder,
  };
}
