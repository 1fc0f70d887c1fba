import type { BlacklistEntry, BlacklistInput } from '@shared/contracts/blacklist';
import { useMemo } from 'react';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The blacklist's API path. */
export const BLACKLIST_PATH = '/blacklist';

/** Blacklist calls (create, delete one or many; entries are never edited). */
export function useBlacklistCalls(): EntityCalls<BlacklistEntry, BlacklistInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<BlacklistEntry, BlacklistInput>(client, BLACKLIST_PATH), [client]);
}

/** The blacklist, server-paged with load more. */
export function useBlacklistList(query: ListQuery): EntityListState<BlacklistEntry> {
  return useEntityList<BlacklistEntry>(BLACKLIST_PATH, query);
}
