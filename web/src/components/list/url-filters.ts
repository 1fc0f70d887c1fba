import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

type Values = Record<string, unknown>;

/** The address's query with `patch` applied: an empty value takes its parameter out; the others stay as they are. */
export function patchedQuery(search: string, patch: Values): string {
  const params = new URLSearchParams(search);
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined || value === null || value === '') params.delete(name);
    else params.set(name, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * A list's filters kept in the page's address (/message?kind=transactional), so a link, a reload or the back button
 * brings back the same list. `names` are the filters' query parameters (string values; an absent one reads as '');
 * null when the list keeps its filters with its saved preferences instead. A change replaces the address rather
 * than adding a history entry per choice.
 */
export function useUrlFilters(names: readonly string[] | null): [Values | null, (patch: Values) => void] {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const namesKey = names ? names.join('\n') : null;
  const values = useMemo(() => {
    if (namesKey === null) return null;
    const params = new URLSearchParams(search);
    return Object.fromEntries(namesKey.split('\n').map((name) => [name, params.get(name) ?? '']));
  }, [search, namesKey]);
  const update = useCallback((patch: Values) => navigate(`${path}${patchedQuery(search, patch)}`, { replace: true }), [navigate, path, search]);
  return [values, update];
}
