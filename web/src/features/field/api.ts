import type { Field, FieldInput, FieldUpdateInput } from '@shared/contracts/field';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useAllRows, useClientList } from '../../components/list/use-client-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The field collection's API path. */
export const FIELD_PATH = '/field';

/** What the field list searches in the browser (it is not server-paged). */
export const FIELD_SEARCH_KEYS: (keyof Field)[] = ['name', 'alias', 'type'];

/** Field calls (create, update, delete, bulk delete, reorder). */
export function useFieldCalls(): EntityCalls<Field, FieldInput | FieldUpdateInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Field, FieldInput | FieldUpdateInput>(client, FIELD_PATH), [client]);
}

/** The field list: every field loaded once, searched and sorted in the browser. */
export function useFieldList(query: ListQuery): EntityListState<Field> {
  return useClientList<Field>(FIELD_PATH, query, FIELD_SEARCH_KEYS);
}

/** Every field of the organisation in display order (shares the list's cache), for contact forms, filters and the import. */
export function useAllFields() {
  const { data, error, isLoading } = useAllRows<Field>(FIELD_PATH);
  const fields = useMemo(() => (data ?? []).slice().sort((a, b) => a.priority - b.priority), [data]);
  return { fields, error, isLoading };
}

/** One field (GET /field/:id); no call while id is null. */
export function useField(id: number | null) {
  return useSWR<ItemBody<Field>>(id ? `${FIELD_PATH}/${id}` : null);
}
