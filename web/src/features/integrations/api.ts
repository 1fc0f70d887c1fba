import type { Integration, IntegrationInput, IntegrationTestResult, IntegrationUpdate } from '@shared/contracts/integration';
import type { ItemBody } from '@shared/errors';
import { atom, useAtom } from 'jotai';
import { useEffect, useMemo, useRef } from 'react';
import useSWR from 'swr';
import { useServices } from '../../app/services-context';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { fetchAllPages, useClientList } from '../../components/list/use-client-list';
import type { ApiClient } from '../../lib/api-client';
import { entityCalls, type EntityCalls } from '../../lib/entity-calls';
import { useListRevision } from '../../lib/list-revision';

/** The integration collection's API path. */
export const INTEGRATION_PATH = '/integration';

/** What the integration list searches in the browser (it is not server-paged). */
export const INTEGRATION_SEARCH_KEYS: (keyof Integration)[] = ['name', 'type', 'status', 'note'];

/** How often the list is refetched while an integration is merging, until it is active again. */
export const MERGING_POLL_MS = 2_000;

/** Integrations whose sync was just asked for: shown as merging at once, before the server's answer. */
export const syncingIntegrationsAtom = atom<ReadonlySet<number>>(new Set<number>());

/** The longest a row stays merging by the local mark alone (the server's status normally takes over sooner). */
export const LOCAL_MERGING_MAX_MS = 15_000;

/** Integration calls (create, update, delete, bulk delete, reorder). */
export function useIntegrationCalls(): EntityCalls<Integration, IntegrationInput | IntegrationUpdate> {
  const { client } = useServices();
  return useMemo(() => entityCalls<Integration, IntegrationInput | IntegrationUpdate>(client, INTEGRATION_PATH), [client]);
}

/** Rows with the locally started syncs shown as merging. */
export function withLocalSyncs(items: Integration[], syncing: ReadonlySet<number>): Integration[] {
  if (!syncing.size) return items;
  return items.map((item) => (syncing.has(item.id) && item.status !== 'merging' ? { ...item, status: 'merging' } : item));
}

/**
 * The integration list: loaded whole (not server-paged), searched and sorted in the browser; while any row is
 * merging it is refetched every few seconds, so the row returns to active by itself.
 */
export function useIntegrationList(query: ListQuery): EntityListState<Integration> {
  const list = useClientList<Integration>(INTEGRATION_PATH, query, INTEGRATION_SEARCH_KEYS);
  const [syncing, setSyncing] = useAtom(syncingIntegrationsAtom);
  const items = useMemo(() => withLocalSyncs(list.items, syncing), [list.items, syncing]);
  // Once the server itself says merging, the local mark has done its job.
  useEffect(() => {
    const confirmed = list.items.filter((item) => syncing.has(item.id) && item.status === 'merging').map((item) => item.id);
    if (confirmed.length) setSyncing((current) => new Set([...current].filter((id) => !confirmed.includes(id))));
  }, [list.items, syncing, setSyncing]);
  const merging = items.some((item) => item.status === 'merging');
  const refresh = useRef(list.refresh);
  refresh.current = list.refresh;
  useEffect(() => {
    if (!merging) return;
    const timer = setInterval(() => void refresh.current(), MERGING_POLL_MS);
    return () => clearInterval(timer);
  }, [merging]);
  return { ...list, items };
}

/** Every integration (for the sender form's choice). */
export function useAllIntegrations() {
  const { client } = useServices();
  const revision = useListRevision(INTEGRATION_PATH);
  const { data, error, isLoading } = useSWR<Integration[]>([INTEGRATION_PATH, { all: true }, revision], () => fetchAllPages<Integration>(client, INTEGRATION_PATH), {
    keepPreviousData: true,
  });
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
