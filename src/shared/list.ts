import { z } from 'zod';

// The list contract every entity shares: query parameters in, `{ items, meta }` out.
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_WITH_IDS = 100;
export const PAGE_SIZE_MAX = 100;
export const REMOVING_PAGE_SIZE = 100;
/** The most ids one request may name (bulk delete, reorder, list filter). */
export const IDS_MAX = 1000;

export type SortOrder = 'asc' | 'desc';

export interface ListMeta {
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
}

export interface ListResponse<T> {
  items: T[];
  meta: ListMeta;
}

/** Parameters the list screen sends. Arrays go as repeated keys (`ids=1&ids=2`); empty values are dropped. */
export interface ListParams {
  page?: number;
  page_size?: number;
  sort_by?: string;
  sort_order?: SortOrder;
  search?: string;
  ids?: number[];
  [filter: string]: unknown;
}

const positiveInt = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a whole number` })
    .int(`${label} must be a whole number`)
    .min(1, `${label} must be at least 1`);

/** Search text: trimmed, bounded, and free of control characters (which no search can mean). */
export function searchText(label = 'search') {
  return z
    .string()
    .trim()
    .max(200, `${label} is too long`)
    .regex(/^[^\u0000-\u001f\u007f]*$/, `${label} must not contain control characters`);
}

/** Builds the query schema of one entity's list from its sortable keys. */
export function listQuerySchema(sortKeys: readonly [string, ...string[]]) {
  return z
    .object({
      page: positiveInt('page').max(1_000_000, 'page is too large').optional(),
      page_size: positiveInt('page_size').max(PAGE_SIZE_MAX, `page_size must be at most ${PAGE_SIZE_MAX}`).optional(),
      sort_by: z.enum(sortKeys, { error: `sort_by must be one of: ${sortKeys.join(', ')}` }).optional(),
      sort_order: z.enum(['asc', 'desc'], { error: 'sort_order must be asc or desc' }).optional(),
      search: searchText().optional(),
      // One `ids=1` arrives as a string, repeated keys as an array.
      ids: z.preprocess(
        (v) => (v === undefined || Array.isArray(v) ? v : [v]),
        z.array(positiveInt('ids')).max(IDS_MAX, `at most ${IDS_MAX} ids`).optional(),
      ),
    })
    .strict();
}

/** Body of a bulk delete: either explicit ids, or the list's current filters (no paging or sorting). */
export const bulkDeleteSchema = z
  .object({
    ids: z.array(z.number({ error: 'ids must be numbers' }).int().positive()).min(1, 'At least one item must be selected').max(IDS_MAX).optional(),
    search: searchText().optional(),
  })
  .strict();

export const prioritiesSchema = z
  .object({
    ids: z
      .array(z.number({ error: 'ids must be numbers' }).int().positive())
      .min(1, 'At least one item must be selected')
      .max(IDS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'ids must not repeat'),
  })
  .strict();
