import type { Subscription, SubscriptionInput } from '@shared/contracts/subscription';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The subscription collection's API path. */
export const SUBSCRIPTION_PATH = '/subscription';

/** Subscription calls (create, update, delete, bulk delete, reorder). */
export function useSubscriptionCalls(): EntityCalls<Subscription, SubscriptionInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Subscription, SubscriptionInput>(client, SUBSCRIPTION_PATH), [client]);
}

/** The subscription list, server-paged with load more. */
export function useSubscriptionList(query: ListQuery): EntityListState<Subscription> {
  return useEntityList<Subscription>(SUBSCRIPTION_PATH, query);
}

/** One subscription; no call while id is null. */
export function useSubscription(id: number | null) {
  return useSWR<ItemBody<Subscription>>(id ? `${SUBSCRIPTION_PATH}/${id}` : null);
}
