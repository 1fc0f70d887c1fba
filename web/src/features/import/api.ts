import type { Import, ImportCreateInput } from '@shared/contracts/import';
import type { ItemBody } from '@shared/errors';
import useSWR from 'swr';
import type { EntityListState, ListQuery } from '../../components/list/types';
import { useEntityList } from '../../components/list/use-entity-list';
import type { ApiClient } from '../../lib/api-client';

/** The import collection's API path (list, read, create; uploads go to /import/upload). */
export const IMPORT_PATH = '/import';

/** Past imports, server-paged with load more, newest first. */
export function useImportList(query: ListQuery): EntityListState<Import> {
  return useEntityList<Import>(IMPORT_PATH, query);
}

/** One import with its rejected rows (only GET /import/:id carries them); no call while id is null. */
export function useImport(id: number | null) {
  return useSWR<ItemBody<Import>>(id ? `${IMPORT_PATH}/${id}` : null, { revalidateOnMount: true });
}

/** Creates and queues an import of an uploaded file (POST /import). */
export function createImport(client: ApiClient, input: ImportCreateInput): Promise<Import> {
  return client.post<ItemBody<Import>>(IMPORT_PATH, input).then((body) => body.data);
}
