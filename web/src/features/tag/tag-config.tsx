import type { Tag, TagInput } from '@shared/contracts/tag';
import type { FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { DateTime } from '../../components/common/DateTime';

/** Tag list columns; every one sorts on the server (TAG_SORT_KEYS). */
export const TAG_COLUMNS: ListColumn<Tag>[] = [
  { key: 'name', labelKey: 'tags.fields.name', sortable: true },
  { key: 'priority', labelKey: 'list.columns.priority', sortable: true, width: 90 },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The tag form: one required name (at most 100 characters, as the server checks). */
export const TAG_FIELDS: FormFieldConfig[] = [{ name: 'name', labelKey: 'tags.fields.name', required: true, maxLength: 100, autoFocus: true }];

/** The request body of a tag save: the name as typed (the server trims and validates it). */
export function tagInput(values: FormValues): TagInput {
  return { name: String(values.name ?? '') };
}
