import { tags } from '../../db/schema';
import { tagInputSchema, type Tag, type TagInput } from '../../shared/contracts/tag';
import { crudRoutes } from '../crud/crud-routes';

/** /tag: the shared entity contract, configured for tags. */
export const tagRoutes = crudRoutes<typeof tags, TagInput, Tag>({
  table: tags,
  input: tagInputSchema,
  sortable: { priority: tags.priority, id: tags.id, name: tags.name, created_at: tags.createdAt, updated_at: tags.updatedAt },
  defaultSort: { key: 'priority', order: 'asc' },
  search: [tags.name],
  priority: tags.priority,
  audit: 'tag',
  toValues: (input) => (input.name === undefined ? {} : { name: input.name }),
  present: (_c, rows) =>
    rows.map((row) => ({
      id: row.id,
      name: row.name,
      priority: row.priority,
      created_at: row.createdAt,
      updated_at: row.updatedAt,
    })),
});
