import type { Integration, IntegrationInput, IntegrationTestResult, IntegrationUpdate } from '@shared/contracts/integration';
import type { ItemBody } from '@shared/errors';
import { useCallback, useMemo } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { useServices } from '../../lib/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useAllRows, useClientList } from '../../components/list/use-client-list';
import type { ApiClient } from '../../lib/api-client';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';

/** The integration collection's API path. */
export const INTEGRATION_PATH = '/integration';

/** What the integration list searches in the browser (it is not server-paged). */
export const INTEGRATION_SEARCH_KEYS: (keyof Integration)[] = ['name', 'type', 'status', 'note'];

/** How often the list is refetched while an integration is merging, until it is active again. */
export const MERGING_POLL_MS = 2_000;

/** Integration calls (create, update, delete, bulk delete, reorder). */
export function useIntegrationCalls(): EntityCalls<Integration, IntegrationInput | IntegrationUpdate> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Integration, IntegrationInput | IntegrationUpdate>(client, INTEGRATION_PATH), [client]);
}

/** The list's refetch interval for its latest rows: MERGING_POLL_MS while any row is merging, else none. */
export function mergingPollInterval(rows: Integration[] | undefined): number {
  return rows?.some((row) => row.status === 'merging') ? MERGING_POLL_MS : 0;
}

/**
 * The integration list: loaded whole (not server-paged), searched and sorted in the browser; while any row is
 * merging it is refetched every few seconds, so the row returns to active by itself.
 */
export function useIntegrationList(query: ListQuery): EntityListState<Integration> {
  // The same cached rows (one request) decide the interval: SWR restarts polling when the number changes.
  const { data } = useAllRows<Integration>(INTEGRATION_PATH);
  return useClientList<Integration>(INTEGRATION_PATH, query, INTEGRATION_SEARCH_KEYS, { refreshInterval: mergingPollInterval(data) });
}

/**
 * Starts a sync (POST /integration/{id}/sync): the server answers with the row already merging, which replaces
 * the old row in every cached integration list (the list then polls until the sync is over).
 */
export function useIntegrationSync(): (id: number) => Promise<Integration> {
  const { client } = useServices();
  const { mutate } = useSWRConfig();
  return useCallback(
    async (id: number) => {
      const row = await requestIntegrationSync(client, id);
      const isAllRows = (key: unknown) => Array.isArray(key) && key[0] === INTEGRATION_PATH && (key[1] as { all?: boolean } | undefined)?.all === true;
      await mutate(isAllRows, (rows: Integration[] | undefined) => rows?.map((item) => (item.id === row.id ? row : item)), { revalidate: false });
      return row;
    },
    [client, mutate],
  );
}

/** Every integration (for the sender form's choice). */
export function useAllIntegrations() {
  const { data, error, isLoading } = useAllRows<Integration>(INTEGRATION_PATH);
  return { integrations: data ?? [], error, isLoading };
}

/** One integration (GET /integration/:id); no call while id is null. */
export function useIntegration(id: number | null) {
  return useSWR<ItemBody<Integration>>(id ? `${INTEGRATION_PATH}/${id}` : null);
}

/** POST /integration/{id}/sync: queues a sync of a twilio integration (its status becomes merging). */
export function requestIntegrationSync(client: ApiClient, id: number): Promise<Integration> {
  return client.post<ItemBody<Integration>>(`${INTEGRATION_PATH}/${id}/sync`).then((body) => body.data);
}

/** POST /integration/{id}/test: connects to the SMTP server (and logs in); the answer says how it went in words. */
export function testIntegrationConnection(client: ApiClient, id: number): Promise<IntegrationTestResult & { server_reply?: string | null }> {
  return client.post<ItemBody<IntegrationTestResult & { server_reply?: string | null }>>(`${INTEGRATION_PATH}/${id}/test`).then((body) => body.data);
}

/** The credentials path of an integration: PATCH /integration/{id}/{type}/credentials. */
export function credentialsPath(integration: Pick<Integration, 'id' | 'type'>): string {
  return `${INTEGRATION_PATH}/${integration.id}/${integration.type}/credentials`;
}

/** The calls the shared form needs to save credentials (PATCH, no create or delete). */
export function credentialsCalls(client: ApiClient, integration: Pick<Integration, 'id' | 'type'>): EntityCalls<Integration, Record<string, string>> {
  const base = entityCalls<Integration, Record<string, string>>(client, INTEGRATION_PATH);
  const path = credentialsPath(integration);
  return {
    ...base,
    update: (_id, input) => client.request<ItemBody<Integration>>({ method: 'PATCH', path, body: input }).then((body) => body.data),
    updateKey: () => client.keyOf('PATCH', path),
  };
}
