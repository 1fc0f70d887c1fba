import { Badge, Group, Text } from '@mantine/core';
import { hasSubject, type Template, type TemplateInput, type TemplateListItem, type TemplateType, type TemplateUpdate } from '@shared/contracts/template';
import { MESSAGES } from '@shared/messages';
import { IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import type { FormValues } from '../../components/form/types';
import type { ListColumn } from '../../components/list/types';

/** A template type as a badge (HTML, Text, Email). */
export function TemplateTypeBadge({ type }: { type: TemplateType }) {
  const { t } = useTranslation();
  const color = type === 'html' ? 'grape' : type === 'email' ? 'indigo' : 'gray';
  return (
    <Badge variant="light" color={color}>
      {t(`templates.types.${type}`)}
    </Badge>
  );
}

/** Template list columns (server-sorted). */
export const TEMPLATE_COLUMNS: ListColumn<TemplateListItem>[] = [
  {
    key: 'name',
    labelKey: 'templates.fields.name',
    sortable: true,
    render: (row) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm">{row.name}</Text>
        {row.attachments.length > 0 && (
          <Group gap={2} wrap="nowrap" c="dimmed" data-testid="template-attachment-count">
            <IconPaperclip size={14} />
            <Text size="xs">{row.attachments.length}</Text>
          </Group>
        )}
      </Group>
    ),
  },
  { key: 'type', labelKey: 'templates.fields.type', sortable: true, render: (row) => <TemplateTypeBadge type={row.type} /> },
  { key: 'alias', labelKey: 'templates.fields.alias', sortable: true, render: (row) => row.alias ?? '' },
  {
    key: 'subject',
    labelKey: 'templates.fields.subject',
    render: (row) => (
      <Text size="sm" truncate maw={280}>
        {row.subject ?? ''}
      </Text>
    ),
  },
  { key: 'updated_at', labelKey: 'list.columns.updated_at', sortable: true, render: (row) => <DateTime value={row.updated_at} /> },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** Spec 9: the form is 600 wide for a text template (SMS-sized), 1600 for html and email (the editor). */
export function templateFormWidth(type: unknown): number {
  return type === 'text' ? 600 : 1600;
}

/** Whether a type is edited in the rich-text editor (html and email) rather than a plain text area (text). */
export function isRichType(type: unknown): boolean {
  return type === 'html' || type === 'email';
}

/** The fields a type change clears while creating (spec 4): the body, subject and plain body of the old type. */
export const CLEARED_ON_TYPE_CHANGE = ['body', 'subject', 'body_plain'] as const;

/** After one field changed: a new type (on create) empties body, subject and plain body. */
export function afterTemplateChange(name: string, next: FormValues, previous: FormValues): FormValues {
  if (name !== 'type' || next.type === previous.type) return next;
  return { ...next, ...Object.fromEntries(CLEARED_ON_TYPE_CHANGE.map((field) => [field, ''])) };
}

/** Starting values: the template's, or a new html template. */
export function templateFormValues(item: Template | null): FormValues {
  return {
    type: item?.type ?? 'html',
    name: item?.name ?? '',
    alias: item?.alias ?? '',
    note: item?.note ?? '',
    subject: item?.subject ?? '',
    body: item?.body ?? '',
    body_plain: item?.body_plain ?? '',
  };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Browser checks: a type, a name and a body (the server checks the template syntax). */
export function validateTemplate(values: FormValues): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (!['html', 'text', 'email'].includes(text(values.type))) errors.type = [MESSAGES.required];
  if (!text(values.name).trim()) errors.name = [MESSAGES.required];
  if (!text(values.body).trim()) errors.body = [MESSAGES.required];
  return errors;
}

/** The fields every save sends; a subject for html and email templates, a plain body for email templates only. */
function commonPayload(values: FormValues, type: TemplateType): TemplateUpdate {
  const email = type === 'email';
  return {
    name: text(values.name).trim(),
    alias: text(values.alias).trim() || null,
    note: text(values.note).trim() || null,
    subject: hasSubject(type) ? text(values.subject).trim() || null : null,
    body: text(values.body),
    body_plain: email ? text(values.body_plain) || null : null,
  };
}

/** POST /template body. */
export function templateCreatePayload(values: FormValues): TemplateInput {
  const type = text(values.type) as TemplateType;
  return { type, ...commonPayload(values, type) };
}

/** PUT /template/{id} body: everything but the type, which is fixed. */
export function templateUpdatePayload(values: FormValues, item: Template): TemplateUpdate {
  return commonPayload(values, item.type);
}
