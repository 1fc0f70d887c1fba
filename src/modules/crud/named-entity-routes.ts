import type { subscriptions, tags } from '../../db/schema';
import { crudRoutes } from './crud-routes';

/** Entities that are just a name, unique per organisation, in a drag order. */
type NamedTable = typeof tags | typeof subscriptions;

export interface NamedItem {
  id: number;
  name: string;
  priority: number;
  created_at: string;
  updated_at: string;
}

/** The shared contract configured for a named, drag-reorderable entity (tags, subscriptions). */
export function namedEntityRoutes(table: NamedTable, audit: string, input: Parameters<typeof crudRoutes>[0]['input']) {
  return crudRoutes<NamedTable, { name: string }, NamedItem>({
    table,
    input,
    sortable: { priority: table.priority, id: table.id, name: table.name, created_at: table.createdAt, updated_at: table.updatedAt },
    defaultSort: { key: 'priority', order: 'asc' },
    search: [table.name],
    priority: table.priority,
    audit,
    toValues: (values) => (values.name === undefined ? {} : { name: values.name }),
    present: (_c, rows) => rows.map((row) => ({ id: row.id, name: row.name, priority: row.priority, created_at: row.createdAt, updated_at: row.updatedAt })),
  });
}
