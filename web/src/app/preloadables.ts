import type { UserInit } from '@shared/contracts/auth';
import type { ItemBody } from '@shared/errors';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { preloadRows } from '../components/list/use-client-list';
import { FIELD_PATH } from '../features/field/api';
import { INTEGRATION_PATH } from '../features/integration/api';
import { listRevisionAtom } from '../lib/list-revision';
import { currentUserAtom } from '../lib/session-state';
import { useServices } from '../lib/services-context';

/**
 * Spec 3 "Init data": once a user is signed in, GET /init/user brings the preloadables in one call, and the
 * organisation's integrations and fields go into the cache the lists and selects read, so they are not fetched
 * one by one at start.
 */
export function usePreloadables(): void {
  const { client, store } = useServices();
  const { mutate } = useSWRConfig();
  const userId = useAtomValue(currentUserAtom)?.id ?? null;
  useEffect(() => {
    if (userId === null) return;
    let current = true;
    client
      .get<ItemBody<UserInit>>('/init/user')
      .then(({ data }) => {
        if (!current) return;
        // A collection changed earlier in this page's life (another sign-in) is read at a later revision.
        const revisions = store.get(listRevisionAtom);
        preloadRows(mutate, INTEGRATION_PATH, data.preloadables.integrations, revisions[INTEGRATION_PATH] ?? 0);
        preloadRows(mutate, FIELD_PATH, data.preloadables.fields, revisions[FIELD_PATH] ?? 0);
      })
      .catch(() => undefined); // the lists fetch their own rows instead
    return () => {
      current = false;
    };
  }, [client, mutate, store, userId]);
}
