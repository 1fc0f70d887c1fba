import type { SortOrder } from '@shared/list';
import { readItem, writeItem, type KeyValueStorage } from './storage';

/** One sort entry as the list screen keeps it. */
export interface SortBy {
  key: string;
  order: SortOrder;
}

/** Saved list preferences: search, page size, sort, plus any filter keys. */
export interface ListPreferences {
  search?: string;
  itemsPerPage?: number;
  sortBy?: SortBy[];
  [filter: string]: unknown;
}

/** The storage key of a list's preferences, per user and organisation: dataTable:{userId}:{orgId or _}:{listKey}. */
export function listPreferencesKey(userId: number | string, orgId: number | string | null | undefined, listKey: string): string {
  return `dataTable:${userId}:${orgId ?? '_'}:${listKey}`;
}

/** Reads saved preferences; missing or unreadable values give an empty object. */
export function readListPreferences(storage: KeyValueStorage, key: string): ListPreferences {
  const raw = readItem(storage, key);
  if (!raw) return {};
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ListPreferences) : {};
  } catch {
    return {};
  }
}

/** Saves preferences as JSON under the list's key. */
export function writeListPreferences(storage: KeyValueStorage, key: string, prefs: ListPreferences): void {
  writeItem(storage, key, JSON.stringify(prefs));
}
