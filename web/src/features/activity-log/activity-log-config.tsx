import { Badge, Group, NativeSelect, Text } from '@mantine/core';
import type { ActivityLogEntry } from '@shared/contracts/activity-log';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import type { ListFilters } from '../../components/list/ListScreen';
import type { ListColumn } from '../../components/list/types';
import { LOGGED_ENTITIES } from './api';
import { readableValue } from './readable-value';

/** How many characters of a value a cell shows (the whole text is in its tooltip). */
const VALUE_PREVIEW = 80;

/** A readable value cut to a readable length. */
function cut(readable: string): string {
  return readable.length > VALUE_PREVIEW ? `${readable.slice(0, VALUE_PREVIEW - 1)}…` : readable;
}

/** A logged value in readable form, cut to a readable length; null shows as an empty cell. */
export function previewValue(value: string | null): string {
  return cut(readableValue(value));
}

/** A logged value in readable form, cut, with the whole of it in the tooltip; null shows as an empty cell. */
function ValueCell({ value }: { value: string | null }) {
  const readable = readableValue(value);
  return (
    <Text size="sm" title={value === null ? undefined : readable} style={{ wordBreak: 'break-word' }}>
      {cut(readable)}
    </Text>
  );
}

function EntityLabel({ entity, id }: { entity: string; id: number | null }) {
  const { t } = useTranslation();
  return (
    <>
      {t(`activityLog.entities.${entity}`, { defaultValue: entity })}
      {id !== null && <Text span c="dimmed" size="xs">{` #${id}`}</Text>}
    </>
  );
}

function ActionBadge({ action }: { action: string }) {
  const { t } = useTranslation();
  const color = action === 'create' ? 'green' : action === 'delete' ? 'red' : 'blue';
  return (
    <Badge variant="light" color={color}>
      {t(`activityLog.actions.${action}`, { defaultValue: action })}
    </Badge>
  );
}

/** Who made a change: the user's name, or (no user) the organisation API key that made it, by its name. */
function ActorCell({ row }: { row: ActivityLogEntry }) {
  const { t } = useTranslation();
  if (row.api_key_id !== null && row.user_id === null) {
    return (
      <Group gap={4} wrap="nowrap" data-testid="activity-by-key">
        <IconKey size={14} aria-hidden />
        <Text size="sm">{t('activityLog.byKey', { name: row.api_key_name ?? `#${row.api_key_id}` })}</Text>
      </Group>
    );
  }
  return <Text size="sm">{row.user_name ?? ''}</Text>;
}

/** Activity log columns (spec 3 and the issue): date, who, entity, action, field, previous and new value, browser, OS, device. */
export const ACTIVITY_LOG_COLUMNS: ListColumn<ActivityLogEntry>[] = [
  { key: 'created_at', labelKey: 'activityLog.fields.date', sortable: true, width: 150, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'by', labelKey: 'activityLog.fields.by', render: (row) => <ActorCell row={row} /> },
  { key: 'entity', labelKey: 'activityLog.fields.entity', render: (row) => <EntityLabel entity={row.entity} id={row.entity_id} /> },
  { key: 'action', labelKey: 'activityLog.fields.action', render: (row) => <ActionBadge action={row.action} /> },
  { key: 'field', labelKey: 'activityLog.fields.field' },
  { key: 'previous_value', labelKey: 'activityLog.fields.previousValue', render: (row) => <ValueCell value={row.previous_value} /> },
  { key: 'new_value', labelKey: 'activityLog.fields.newValue', render: (row) => <ValueCell value={row.new_value} /> },
  { key: 'browser', labelKey: 'activityLog.fields.browser', render: (row) => row.browser ?? '' },
  { key: 'os', labelKey: 'activityLog.fields.os', render: (row) => row.os ?? '' },
  { key: 'device', labelKey: 'activityLog.fields.device', render: (row) => row.device ?? '' },
];

function EntityFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      mb="md"
      w={240}
      label={t('activityLog.fields.entity')}
      data-testid="filter-entity"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: t('activityLog.anyEntity') },
        ...LOGGED_ENTITIES.map((entity) => ({ value: entity, label: t(`activityLog.entities.${entity}`) })),
      ]}
    />
  );
}

/** The log's filter: by entity. */
export const ACTIVITY_LOG_FILTERS: ListFilters = {
  defaults: { entity: '' },
  render: (values, onChange) => <EntityFilter value={String(values.entity ?? '')} onChange={(entity) => onChange({ entity })} />,
};
