import type { Message, MessageListItem } from '@shared/contracts/message';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { useAllRows } from '../../components/list/use-client-list';
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

/** The organisation's API keys (GET /organization-api-key), of which a message only needs a key's id and name. */
export const ORGANIZATION_API_KEY_PATH = '/organization-api-key';

/**
 * The name of the organisation API key that sent a message, from the organisation's key list; null while it loads,
 * when the key is not in it (deleted) or when the list cannot be read (e.g. a role without access to the keys).
 */
export function useApiKeyName(id: number): string | null {
  const { data } = useAllRows<{ id: number; name: string }>(ORGANIZATION_API_KEY_PATH, {}, { shouldRetryOnError: false });
  return data?.find((key) => key.id === id)?.name ?? null;
}
