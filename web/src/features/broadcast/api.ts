import type { Broadcast, BroadcastAction, BroadcastInput, BroadcastRecipient, RecipientsPreview, RecipientsPreviewInput } from '@shared/contracts/broadcast';
import type { ItemBody } from '@shared/errors';
import type { ListResponse } from '@shared/list';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import type { ApiClient } from '../../lib/api-client';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The broadcast collection's API path. */
export const BROADCAST_PATH = '/broadcast';

/** Broadcast calls (create; broadcasts are never edited or deleted). */
export function useBroadcastCalls(): EntityCalls<Broadcast, BroadcastInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Broadcast, BroadcastInput>(client, BROADCAST_PATH), [client]);
}

/** The broadcast list, server-paged with load more. */
export function useBroadcastList(query: ListQuery): EntityListState<Broadcast> {
  return useEntityList<Broadcast>(BROADCAST_PATH, query);
}

/** One broadcast (GET /broadcast/:id); no call while id is null. */
export function useBroadcast(id: number | null) {
  return useSWR<ItemBody<Broadcast>>(id ? `${BROADCAST_PATH}/${id}` : null);
}

/** The recipients of one broadcast, server-paged (GET /broadcast/:id/recipients). */
export function recipientsListHook(id: number) {
  return function useRecipients(query: ListQuery): EntityListState<BroadcastRecipient & { id: number }> {
    const list = useEntityList<BroadcastRecipient>(`${BROADCAST_PATH}/${id}/recipients`, query);
    return { ...list, items: list.items.map((r) => ({ ...r, id: r.message_id })), showOrder: () => {} };
  };
}

/** How many of the broadcast's recipients still have their message listed (the unfiltered count, one row fetched). */
export function useListedRecipients(id: number): number | null {
  const { data } = useSWR<ListResponse<BroadcastRecipient>>([`${BROADCAST_PATH}/${id}/recipients`, { page_size: 1 }]);
  return data?.meta.total ?? null;
}

/** POST /broadcast/:id/:action: pause, resume, cancel or retry failed; answers the broadcast after it. */
export function broadcastAction(client: ApiClient, id: number, action: BroadcastAction): Promise<Broadcast> {
  return client.post<ItemBody<Broadcast>>(`${BROADCAST_PATH}/${id}/${action}`).then((body) => body.data);
}

/** POST /broadcast/preview: how many contacts the recipients filter selects, and a few of them. */
export function previewRecipients(client: ApiClient, input: RecipientsPreviewInput): Promise<RecipientsPreview> {
  return client.post<ItemBody<RecipientsPreview>>(`${BROADCAST_PATH}/preview`, input).then((body) => body.data);
}
