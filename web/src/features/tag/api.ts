import type { Tag, TagInput } from '@shared/contracts/tag';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';

/** The tag collection's API path. */
export const TAG_PATH = '/tag';

/** Tag calls (create, update, delete, bulk delete, reorder) on the app's API client. */
export function useTagCalls(): EntityCalls<Tag, TagInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Tag, TagInput>(client, TAG_PATH), [client]);
}

/** The tag list, server-paged with load more. */
export function useTagList(query: ListQuery): EntityListState<Tag> {
  return useEntityList<Tag>(TAG_PATH, query);
}

/** One tag (GET /tag/:id); no call while id is null. */
export function useTag(id: number | null) {
  return useSWR<ItemBody<Tag>>(id ? `${TAG_PATH}/${id}` : null);
}
