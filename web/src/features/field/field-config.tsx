import { Badge, Group } from '@mantine/core';
import { FIELD_ALIAS_PATTERN, FIELD_MESSAGES, FIELD_TYPES, hasOptions, type Field } from '@shared/contracts/field';
import { MESSAGES } from '@shared/messages';
import { DateTime } from '../../components/common/DateTime';
import type { FormFieldConfig, FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';
import { aliasFromName } from './field-form';
import { FieldTypeLabel } from './FieldTypeLabel';
import { OptionsEditor } from './OptionsEditor';

/** How many option chips a row shows before "+N". */
const SHOWN_OPTIONS = 4;

/** Field list columns; the list is sorted in the browser, so every column can sort. */
export const FIELD_COLUMNS: ListColumn<Field>[] = [
  { key: 'name', labelKey: 'fields.fields.name', sortable: true },
  { key: 'alias', labelKey: 'fields.fields.alias', sortable: true, render: (row) => <code>{row.alias}</code> },
  { key: 'type', labelKey: 'fields.fields.type', sortable: true, render: (row) => <FieldTypeLabel type={row.type} /> },
  {
    key: 'options',
    labelKey: 'fields.fields.options',
    render: (row) => (
      <Group gap={4}>
        {row.options.slice(0, SHOWN_OPTIONS).map((option) => (
          <Badge key={option.id} variant="light" color="gray" tt="none">
            {option.value}
          </Badge>
        ))}
        {row.options.length > SHOWN_OPTIONS && <Badge variant="outline" color="gray">{`+${row.options.length - SHOWN_OPTIONS}`}</Badge>}
      </Group>
    ),
  },
  { key: 'priority', labelKey: 'list.columns.priority', sortable: true, width: 90 },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** The field form: name, alias, type (chosen on create only), and options for select and multiselect. */
export function fieldFormFields(mode: 'create' | 'update', types: readonly string[] = FIELD_TYPES): FormFieldConfig[] {
  return [
    { name: 'name', labelKey: 'fields.fields.name', required: true, maxLength: 100, autoFocus: true },
    {
      name: 'alias',
      labelKey: 'fields.fields.alias',
      required: mode === 'update',
      maxLength: 64,
      descriptionKey: mode === 'create' ? 'fields.aliasHintCreate' : 'fields.aliasHint',
    },
    {
      name: 'type',
      labelKey: 'fields.fields.type',
      kind: 'select',
      required: true,
      disabled: mode === 'update',
      descriptionKey: mode === 'update' ? 'fields.typeLocked' : undefined,
      choices: types.map((type) => ({ value: type, labelKey: `fields.types.${type}` })),
    },
    {
      name: 'options',
      labelKey: 'fields.fields.options',
      kind: 'custom',
      visible: (values) => hasOptions(String(values.type ?? '')),
      render: (props) => <OptionsEditor {...props} />,
    },
  ];
}

/** Browser checks before saving: a name, a type, and an alias in the allowed form (when one is given or needed). */
export function validateField(values: FormValues, mode: 'create' | 'update'): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const name = String(values.name ?? '').trim();
  const alias = String(values.alias ?? '').trim() || (mode === 'create' ? aliasFromName(name) : '');
  if (!name) problems.name = [MESSAGES.required];
  if (!String(values.type ?? '')) problems.type = [MESSAGES.required];
  if (!alias) {
    if (mode === 'update' || name) problems.alias = [MESSAGES.required];
  } else if (!FIELD_ALIAS_PATTERN.test(alias)) problems.alias = [FIELD_MESSAGES.alias];
  return problems;
}
