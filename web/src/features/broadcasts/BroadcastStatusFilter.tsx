import { Select } from '@mantine/core';
import { BROADCAST_STATUSES } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';

/** The list's status filter: its empty value and query parameter. */
export const BROADCAST_FILTERS = {
  defaults: { status: '' },
  toQuery: (values: Record<string, unknown>) => ({ status: values.status || undefined }),
};

/** Filter the broadcast list by one status. */
export function BroadcastStatusFilter({ values, onChange }: { values: Record<string, unknown>; onChange: (patch: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  return (
    <Select
      mb="md"
      w={200}
      clearable
      label={t('broadcasts.fields.status')}
      placeholder={t('broadcasts.anyStatus')}
      data-testid="filter-status"
      data={BROADCAST_STATUSES.map((status) => ({ value: status, label: t(`broadcasts.statuses.${status}`) }))}
      value={String(values.status ?? '') || null}
      onChange={(status) => onChange({ status: status ?? '' })}
    />
  );
}
