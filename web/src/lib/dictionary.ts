import type { ListResponse } from '@shared/list';
import useSWR from 'swr';

/** One dictionary entry (GET /dictionary/{name}): an id and an English title. */
export interface DictionaryItem {
  id: string;
  title: string;
}

/**
 * The ids of a fixed dictionary (address-types, field-types...), with the contract's list as the value until
 * the server answers; titles come from the locale files (spec 3: "titles come from translations").
 */
export function useDictionary(name: string, fallback: readonly string[]): string[] {
  const { data } = useSWR<ListResponse<DictionaryItem>>(`/dictionary/${name}`, { revalidateOnMount: true, dedupingInterval: 60_000 });
  return data?.items.length ? data.items.map((item) => item.id) : [...fallback];
}
