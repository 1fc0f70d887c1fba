import type { ItemBody } from '@shared/errors';
import type { BulkDeleteResult, ListParams, ListResponse } from '@shared/list';
import type { ApiClient } from './api-client';

/** Bulk delete body: explicit ids, or `all: true` with the list's current filters (one removing page per call). */
export interface BulkDeleteBody {
  ids?: number[];
  all?: true;
  page_size?: number;
  search?: string;
  [filter: string]: unknown;
}

/** The shared entity contract (spec section 7) as calls: list, read, create, update, delete one/many, reorder. */
export interface EntityCalls<T, Input> {
  path: string;
  list(params: ListParams): Promise<ListResponse<T>>;
  get(id: number): Promise<T>;
  create(input: Input): Promise<T>;
  update(id: number, input: Input): Promise<T>;
  remove(id: number): Promise<unknown>;
  removeMany(body: BulkDeleteBody): Promise<BulkDeleteResult>;
  reorder(ids: number[]): Promise<unknown>;
  /** Request keys under which 422 messages of create and update land. */
  createKey(): string;
  updateKey(id: number): string;
}

/** Builds the calls of one entity collection (e.g. '/tag'); every entity uses these instead of writing its own. */
export function entityCalls<T, Input>(client: ApiClient, path: string): EntityCalls<T, Input> {
  const itemPath = (id: number) => `${path}/${id}`;
  return {
    path,
    list: (params) => client.get<ListResponse<T>>(path, params),
    get: (id) => client.get<ItemBody<T>>(itemPath(id)).then((body) => body.data),
    create: (input) => client.post<ItemBody<T>>(path, input).then((body) => body.data),
    update: (id, input) => client.put<ItemBody<T>>(itemPath(id), input).then((body) => body.data),
    remove: (id) => client.delete(itemPath(id)),
    removeMany: (body) => client.delete<ItemBody<BulkDeleteResult>>(path, body).then((res) => res.data),
    reorder: (ids) => client.post(`${path}/priorities`, { ids }),
    createKey: () => client.keyOf('POST', path),
    updateKey: (id) => client.keyOf('PUT', itemPath(id)),
  };
}
