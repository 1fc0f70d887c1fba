import type { Form, FormInput } from '@shared/contracts/form';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';
import { useServices } from '../../lib/services-context';

/** The form collection's API path (src/modules/form/routes.ts). */
export const FORM_PATH = '/form';

/** Form calls (create, update, delete, bulk delete). */
export function useFormCalls(): EntityCalls<Form, FormInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Form, FormInput>(client, FORM_PATH), [client]);
}

/** The form list, server-paged with load more. */
export function useFormList(query: ListQuery): EntityListState<Form> {
  return useEntityList<Form>(FORM_PATH, query);
}

/** One form; no call while id is null. */
export function useForm(id: number | null) {
  return useSWR<ItemBody<Form>>(id ? `${FORM_PATH}/${id}` : null);
}
