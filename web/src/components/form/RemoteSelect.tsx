import { Loader, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ListResponse } from '@shared/list';
import { useRef, useState, type ReactNode } from 'react';
import useSWR from 'swr';

/** How many matches the dropdown asks the server for. */
export const REMOTE_SELECT_PAGE_SIZE = 50;

export interface RemoteSelectProps<T extends { id: number }> {
  /** The collection to search (GET {path}?search=...&page_size=...). */
  path: string;
  /** Extra list filters (e.g. { type: 'email' }). */
  query?: Record<string, unknown>;
  value: number | null;
  onChange: (id: number | null, item: T | null) => void;
  /** The text of an option. */
  optionLabel: (item: T) => string;
  /** Keeps only fitting items (e.g. senders of the template's type). */
  filter?: (item: T) => boolean;
  /** The chosen item when the page already has it (so its label shows without a lookup). */
  selected?: T | null;
  label?: ReactNode;
  description?: ReactNode;
  placeholder?: string;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  clearable?: boolean;
  nothingFound?: string;
  testId?: string;
}

/**
 * A searchable select over an entity list: what the user types is searched on the server (debounced), and
 * the chosen item keeps its label even when it is not among the current matches.
 */
export function RemoteSelect<T extends { id: number }>(props: RemoteSelectProps<T>) {
  const [search, setSearch] = useState('');
  const seen = useRef(new Map<number, T>());
  const chosenLabel = props.value !== null ? labelOf(props, seen.current.get(props.value)) : null;
  // Typing starts a search; the chosen option's own label in the box is not a search.
  const typed = search.trim() && search !== chosenLabel ? search.trim() : '';
  const [debounced] = useDebouncedValue(typed, 300);
  const { data, isLoading } = useSWR<ListResponse<T>>([props.path, { ...props.query, search: debounced || undefined, page_size: REMOTE_SELECT_PAGE_SIZE }]);
  const known = props.value !== null && (props.selected?.id === props.value || data?.items.some((item) => item.id === props.value));
  const lookup = useSWR<ListResponse<T>>(props.value !== null && !known && !seen.current.has(props.value) ? [props.path, { ids: [props.value] }] : null);

  for (const item of [...(data?.items ?? []), ...(lookup.data?.items ?? []), ...(props.selected ? [props.selected] : [])]) seen.current.set(item.id, item);

  const matches = (data?.items ?? []).filter((item) => !props.filter || props.filter(item));
  const chosen = props.value !== null ? seen.current.get(props.value) : undefined;
  if (chosen && !matches.some((item) => item.id === chosen.id)) matches.unshift(chosen);
  const options = matches.map((item) => ({ value: String(item.id), label: props.optionLabel(item) }));

  return (
    <Select
      label={props.label}
      description={props.description}
      placeholder={props.placeholder}
      error={props.error}
      withAsterisk={props.required}
      disabled={props.disabled}
      clearable={props.clearable}
      // Picking the chosen option again keeps it (the clear button is how to empty the box).
      allowDeselect={false}
      searchable
      data={options}
      value={props.value === null ? null : String(props.value)}
      searchValue={search}
      onSearchChange={setSearch}
      // The server has searched already; the browser keeps every match it got.
      filter={({ options: all }) => all}
      nothingFoundMessage={props.nothingFound}
      rightSection={isLoading ? <Loader size={14} /> : undefined}
      comboboxProps={{ withinPortal: true }}
      data-testid={props.testId}
      onChange={(next) => {
        const id = next ? Number(next) : null;
        // Only a real change is reported: the form clears a field's messages on every change, so a report of the
        // value already held would wipe the messages of a form just submitted.
        if (id === props.value) return;
        props.onChange(id, id !== null ? (seen.current.get(id) ?? null) : null);
      }}
    />
  );
}

function labelOf<T extends { id: number }>(props: RemoteSelectProps<T>, item: T | undefined): string | null {
  const found = item ?? (props.selected && props.selected.id === props.value ? props.selected : undefined);
  return found ? props.optionLabel(found) : null;
}
