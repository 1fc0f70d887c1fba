import { useAtomValue } from 'jotai';
import { useCallback, useState } from 'react';
import { config } from '../../lib/config';
import { useServices } from '../../lib/services-context';
import { listPreferencesKey, readListPreferences, writeListPreferences, type ListPreferences, type SortBy } from '../../lib/list-preferences';
import { currentUserAtom, guestInitAtom } from '../../lib/session-state';

/** Preferences with their defaults applied. */
export interface ResolvedPreferences extends ListPreferences {
  search: string;
  itemsPerPage: number;
  sortBy: SortBy[];
}

/** Keeps only values the list can use (a known page size, a sortable key), falling back to the defaults. */
export function resolvePreferences(saved: ListPreferences, defaults: { sortBy: SortBy; sortKeys: string[] }): ResolvedPreferences {
  const sort = saved.sortBy?.[0];
  const validSort = sort && defaults.sortKeys.includes(sort.key) && (sort.order === 'asc' || sort.order === 'desc');
  return {
    ...saved,
    search: typeof saved.search === 'string' ? saved.search : '',
    itemsPerPage: config.pageSizes.includes(Number(saved.itemsPerPage)) ? Number(saved.itemsPerPage) : config.defaultPageSize,
    sortBy: validSort ? [{ key: sort.key, order: sort.order }] : [defaults.sortBy],
  };
}

/** A list's saved search, page size and sort (per user and organisation), restored on open and saved on change. */
export function useListPreferences(listKey: string, defaults: { sortBy: SortBy; sortKeys: string[] }) {
  const { storage } = useServices();
  const user = useAtomValue(currentUserAtom);
  const init = useAtomValue(guestInitAtom);
  const key = listPreferencesKey(user?.id ?? '_', user?.organization.id ?? init?.organization?.id, listKey);
  const [prefs, setPrefs] = useState(() => resolvePreferences(readListPreferences(storage, key), defaults));

  const update = useCallback(
    (patch: Partial<ResolvedPreferences>) =>
      setPrefs((previous) => {
        const next = { ...previous, ...patch };
        writeListPreferences(storage, key, next);
        return next;
      }),
    [storage, key],
  );
  return [prefs, update] as const;
}
