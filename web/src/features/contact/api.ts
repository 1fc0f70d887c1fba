import type { Contact, ContactInput } from '@shared/contracts/contact';
import type { Tag } from '@shared/contracts/tag';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useAllRows } from '../../components/list/use-client-list';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';
import { TAG_PATH } from '../tag/api';

/** The contact collection's API path. */
export const CONTACT_PATH = '/contact';

/** Contact calls (create, update, delete, bulk delete). */
export function useContactCalls(): EntityCalls<Contact, ContactInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Contact, ContactInput>(client, CONTACT_PATH), [client]);
}

/** The contact list, server-paged with load more (search, tag, address and attribute filters go in the query). */
export function useContactList(query: ListQuery): EntityListState<Contact> {
  return useEntityList<Contact>(CONTACT_PATH, query);
}

/** One contact (GET /contact/:id); no call while id is null. */
export function useContact(id: number | null) {
  return useSWR<ItemBody<Contact>>(id ? `${CONTACT_PATH}/${id}` : null);
}

const TAG_ORDER = { sort_by: 'priority', sort_order: 'asc' };

/** Every tag of the organisation in display order, for the tag selects of the contact form and filters. */
export function useAllTags() {
  const { data, error, isLoading } = useAllRows<Tag>(TAG_PATH, TAG_ORDER);
  return { tags: data ?? [], error, isLoading };
}
