import type { Campaign, CampaignInput } from '@shared/contracts/campaign';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The campaign collection's API path. */
export const CAMPAIGN_PATH = '/campaign';

/** Campaign calls (create, update, delete, bulk delete). */
export function useCampaignCalls(): EntityCalls<Campaign, CampaignInput> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Campaign, CampaignInput>(client, CAMPAIGN_PATH), [client]);
}

/** The campaign list, server-paged with load more. */
export function useCampaignList(query: ListQuery): EntityListState<Campaign> {
  return useEntityList<Campaign>(CAMPAIGN_PATH, query);
}

/** One campaign (GET /campaign/:id); no call while id is null. */
export function useCampaign(id: number | null) {
  return useSWR<ItemBody<Campaign>>(id ? `${CAMPAIGN_PATH}/${id}` : null);
}
