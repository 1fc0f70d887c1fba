import type { ReactNode } from 'react';
import type { SortBy } from '../../lib/list-preferences';

/** A list column: key (also the API sort key when sortable), label (locale key), optional cell renderer. */
export interface ListColumn<T> {
  key: string;
  labelKey: string;
  sortable?: boolean;
  render?: (row: T) => ReactNode;
  width?: number | string;
}

/** What a list data hook returns (see useEntityList). */
export interface EntityListState<T> {
  items: T[];
  total: number;
  /** The server stopped counting at `total`: there are more matches (a search over a large list). */
  totalCapped?: boolean;
  isLoading: boolean;
  isLoadingMore: boolean;
  /** Any page is being fetched (first load, refetch, next page). */
  isValidating: boolean;
  error: unknown;
  hasMore: boolean;
  loadMore: () => void;
  /** Refetches the loaded pages. */
  refresh: () => Promise<unknown>;
  /** Shows rows in a new order at once (before the server confirms a reorder). */
  showOrder: (items: T[]) => void;
}

/** Query the list screen sends (paging is added by the data hook). */
export interface ListQuery {
  page_size: number;
  sort_by: string;
  sort_order: SortBy['order'];
  search?: string;
  [filter: string]: unknown;
}

export type ListRow = { id: number };
