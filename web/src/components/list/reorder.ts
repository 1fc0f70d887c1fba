import type { SortOrder } from '@shared/list';

/** Moves the item with id `from` to the position of the item with id `to`; unknown ids leave the list as is. */
export function moveById<T extends { id: number }>(items: T[], from: number, to: number): T[] {
  const fromIndex = items.findIndex((item) => item.id === from);
  const toIndex = items.findIndex((item) => item.id === to);
  if (fromIndex < 0 || toIndex < 0 || fromIndex === toIndex) return items;
  const next = items.slice();
  const [moved] = next.splice(fromIndex, 1);
  next.splice(toIndex, 0, moved);
  return next;
}

/**
 * The ids for POST /{entity}/priorities: the server hands the rows' existing priority values out in
 * ascending order, so a list shown in descending priority is sent bottom-up.
 */
export function priorityIds(items: { id: number }[], order: SortOrder): number[] {
  const ids = items.map((item) => item.id);
  return order === 'desc' ? ids.reverse() : ids;
}

/** Cuts a flat list back into pages of the given sizes (to update loaded pages after a reorder). */
export function regroup<T>(items: T[], sizes: number[]): T[][] {
  const pages: T[][] = [];
  let offset = 0;
  for (const size of sizes) {
    pages.push(items.slice(offset, offset + size));
    offset += size;
  }
  return pages;
}
