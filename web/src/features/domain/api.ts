import type { DomainCreate, DomainRow } from '@shared/contracts/domain';
import type { ItemBody } from '@shared/errors';
import { PAGE_SIZE_MAX, type ListResponse } from '@shared/list';
import { useMemo } from 'react';
import useSWR from 'swr';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services-context';

/** The sending domains' API paths (issue 37). */
export const DOMAIN_PATHS = {
  list: '/domain',
  one: (id: number) => `/domain/${id}`,
  check: (id: number) => `/domain/${id}/check`,
  rotate: (id: number) => `/domain/${id}/rotate-key`,
} as const;

/** An organisation has a handful of domains: the list is read in one page of the largest size. */
const LIST_KEY = [DOMAIN_PATHS.list, { page_size: PAGE_SIZE_MAX }] as const;

/** Every write call of the Domains screen: each answers the domain's row as it now is. */
export function domainCalls(client: ApiClient) {
  return {
    create: (input: DomainCreate) => client.post<ItemBody<DomainRow>>(DOMAIN_PATHS.list, input).then((b) => b.data),
    remove: (id: number) => client.delete(DOMAIN_PATHS.one(id)),
    check: (id: number) => client.post<ItemBody<DomainRow>>(DOMAIN_PATHS.check(id)).then((b) => b.data),
    rotateKey: (id: number) => client.post<ItemBody<DomainRow>>(DOMAIN_PATHS.rotate(id)).then((b) => b.data),
    /** The request key under which the add form's 422 field messages land. */
    createKey: () => client.keyOf('POST', DOMAIN_PATHS.list),
  };
}

export type DomainCalls = ReturnType<typeof domainCalls>;

/** The domain calls on the app's client (stable across renders). */
export function useDomainCalls(): DomainCalls {
  const { client } = useServices();
  return useMemo(() => domainCalls(client), [client]);
}

/** The organisation's domains (GET /domain). */
export function useDomains() {
  return useSWR<ListResponse<DomainRow>>(LIST_KEY);
}

/** One domain with its records and last check (GET /domain/:id). */
export function useDomain(id: number) {
  return useSWR<ItemBody<DomainRow>>(DOMAIN_PATHS.one(id));
}
