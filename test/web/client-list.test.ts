import { describe, expect, it } from 'vitest';
import { applyFilters, searchAndSort } from '../../web/src/components/list/use-client-list';
import { pageFollows } from '../../web/src/components/list/use-entity-list';

const rows = [
  { id: 1, name: 'Level', alias: 'level', priority: 3, type: 'number' },
  { id: 2, name: 'age', alias: 'age', priority: 1, type: 'number' },
  { id: 3, name: 'City 10', alias: 'city_10', priority: 2, type: 'text' },
  { id: 4, name: 'City 9', alias: 'city_9', priority: 4, type: 'select' },
];

describe('browser-side search and sort of a list loaded whole (the field list)', () => {
  it('sorts numbers as numbers and text without case, both ways', () => {
    expect(searchAndSort(rows, { sort_by: 'priority', sort_order: 'asc' }, ['name']).map((r) => r.id)).toEqual([2, 3, 1, 4]);
    expect(searchAndSort(rows, { sort_by: 'name', sort_order: 'asc' }, ['name']).map((r) => r.name)).toEqual(['age', 'City 9', 'City 10', 'Level']);
    expect(searchAndSort(rows, { sort_by: 'name', sort_order: 'desc' }, ['name']).map((r) => r.name)).toEqual(['Level', 'City 10', 'City 9', 'age']);
  });

  it('searches any of the given keys, case-insensitively, and leaves the input untouched', () => {
    expect(searchAndSort(rows, { search: 'CITY_1', sort_by: 'id', sort_order: 'asc' }, ['name', 'alias']).map((r) => r.id)).toEqual([3]);
    expect(searchAndSort(rows, { search: ' ', sort_by: 'id', sort_order: 'asc' }, ['name'])).toHaveLength(4);
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('browser-side filters of a list loaded whole (field type, integration type and status)', () => {
  it('keeps the rows equal to every chosen filter and ignores search, paging, order and empty values', () => {
    const query = { search: 'x', sort_by: 'name', sort_order: 'asc', page_size: 10 };
    expect(applyFilters(rows, { ...query, type: 'number' }).map((r) => r.id)).toEqual([1, 2]);
    expect(applyFilters(rows, { ...query, type: 'number', alias: 'age' }).map((r) => r.id)).toEqual([2]);
    expect(applyFilters(rows, { ...query, type: 'boolean' })).toEqual([]);
    expect(applyFilters(rows, { ...query, type: '' })).toHaveLength(4);
    // Query values are text; an id filter still matches a numeric column.
    expect(applyFilters(rows, { priority: '4' }).map((r) => r.id)).toEqual([4]);
  });
});

describe('pages of a list whose total stopped at the cap', () => {
  const page = (n: number, items: number, meta: Partial<{ total: number; total_capped: true; total_pages: number }> = {}) => ({
    items: Array.from({ length: items }, (_, i) => i),
    meta: { total: 40, page: n, page_size: 10, total_pages: 4, ...meta },
  });
  it('follow while pages come full past a capped total, and stop at the total otherwise', () => {
    expect(pageFollows(page(3, 10))).toBe(true);
    expect(pageFollows(page(4, 10))).toBe(false);
    expect(pageFollows(page(4, 10, { total_capped: true }))).toBe(true);
    expect(pageFollows(page(7, 3, { total_capped: true }))).toBe(false);
  });
});
