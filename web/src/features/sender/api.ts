import type { Sender, SenderInput, SenderUpdate } from '@shared/contracts/sender';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The sender collection's API path. */
export const SENDER_PATH = '/sender';

/** Sender calls (create, update, delete, bulk delete, reorder). */
export function useSenderCalls(): EntityCalls<Sender, SenderInput | SenderUpdate> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Sender, SenderInput | SenderUpdate>(client, SENDER_PATH), [client]);
}

/** The sender list, server-paged with load more. */
export function useSenderList(query: ListQuery): EntityListState<Sender> {
  return useEntityList<Sender>(SENDER_PATH, query);
}

/** One sender (GET /sender/:id); no call while id is null. */
export function useSender(id: number | null) {
  return useSWR<ItemBody<Sender>>(id ? `${SENDER_PATH}/${id}` : null);
}
