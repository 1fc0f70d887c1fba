import type { Message, MessageListItem } from '@shared/contracts/message';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The message collection's API path. */
export const MESSAGE_PATH = '/message';

/** Message calls: delete one and in bulk (messages are never created or edited by hand). */
export function useMessageCalls(): EntityCalls<MessageListItem, never> {
  const { client } = useServices();
  return useMemo(() => entityCalls<MessageListItem, never>(client, MESSAGE_PATH), [client]);
}

/** The message list, server-paged with load more. */
export function useMessageList(query: ListQuery): EntityListState<MessageListItem> {
  return useEntityList<MessageListItem>(MESSAGE_PATH, query);
}

/** One message with its content (GET /message/:id). */
export function useMessage(id: number | null) {
  return useSWR<ItemBody<Message>>(id ? `${MESSAGE_PATH}/${id}` : null);
}
