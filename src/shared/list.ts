import { z } from 'zod';
import { IDS_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_WITH_IDS, REMOVING_PAGE_SIZE } from './list-sizes';

// The list contract every entity shares: query parameters in, `{ items, meta }` out.
export { IDS_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_WITH_IDS, REMOVING_PAGE_SIZE };

export type SortOrder = 'asc' | 'desc';

export interface ListMeta {
  /** Exact for the whole list, one tag and one broadcast's messages; otherwise at most the cap (then see below). */
  total: number;
  /** Present (true) when the list counted up to its cap (10,000 unless LIST_TOTAL_CAP says) and stopped: there are more than `total`. */
  total_capped?: true;
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
      ids: z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(positiveInt('ids')).max(IDS_MAX, `at most ${IDS_MAX} ids`).optional()),
    })
    .strict();
}

/**
 * Body of a bulk delete: explicit `ids`, or `"all": true` with the list's current filters (no sorting), which
 * deletes up to `page_size` matching rows (default REMOVING_PAGE_SIZE) and says whether `more` remain: the console
 * repeats it until none do. A body with neither deletes nothing (422): `{}` must never mean "everything".
 */
export const bulkDeleteSchema = z
  .object({
    ids: z
      .array(z.number({ error: 'ids must be numbers' }).int().positive())
      .min(1, 'At least one item must be selected')
      .max(IDS_MAX)
      .optional(),
    all: z.literal(true, { error: 'all must be true (or left out)' }).optional(),
    page_size: positiveInt('page_size').max(IDS_MAX, `page_size must be at most ${IDS_MAX}`).optional(),
    search: searchText().optional(),
  })
  .strict();

export const BULK_DELETE_MESSAGES = {
  noTarget: 'Select the rows to delete (ids), or send "all": true to delete every row that matches the filters',
  both: 'Send ids or "all": true, not both',
} as const;

/** The rule every bulk delete body follows, whatever filters its entity adds: ids, or all, never neither. */
export function requireBulkDeleteTarget<S extends z.ZodType<{ ids?: number[]; all?: true }>>(schema: S) {
  return schema.superRefine((body, ctx) => {
    if (body.ids === undefined && body.all !== true) ctx.addIssue({ code: 'custom', path: ['ids'], message: BULK_DELETE_MESSAGES.noTarget });
    if (body.ids !== undefined && body.all === true) ctx.addIssue({ code: 'custom', path: ['all'], message: BULK_DELETE_MESSAGES.both });
  });
}

/** Answer of a bulk delete: rows deleted by this request, and whether rows matching an `all` delete remain. */
export interface BulkDeleteResult {
  deleted: number;
  more: boolean;
}

export const prioritiesSchema = z
  .object({
    ids: z
      .array(z.number({ error: 'ids must be numbers' }).int().positive())
      .min(1, 'At least one item must be selected')
      .max(IDS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'ids must not repeat'),
  })
  .strict();
