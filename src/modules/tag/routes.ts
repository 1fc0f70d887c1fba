import { tags } from '../../db/schema';
import { TAG_SORT_KEYS, tagInputSchema, type Tag, type TagInput } from '../../shared/contracts/tag';
import { crudRoutes } from '../crud/crud-routes';

const sortable: Record<(typeof TAG_SORT_KEYS)[number], (typeof tags)[keyof typeof tags & string]> = {
  priority: tags.priority,
  id: tags.id,
  name: tags.name,
  created_at: tags.createdAt,
  updated_at: tags.updatedAt,
};

/** /tag: the shared entity contract, configured for tags. */
export const tagRoutes = crudRoutes<typeof tags, TagInput, Tag>({
  table: tags,
  input: tagInputSchema,
  sortable: sortable as never,
  defaultSort: { key: 'priority', order: 'asc' },
  search: [tags.name],
  priority: tags.priority,
  toValues: (input) => (input.name === undefined ? {} : { name: input.name }),
  toDto: (row) => ({
    id: row.id,
    name: row.name,
    priority: row.priority,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }),
});
