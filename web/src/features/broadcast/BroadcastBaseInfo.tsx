import { Paper, Table } from '@mantine/core';
import type { Broadcast } from '@shared/contracts/broadcast';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Tag } from '@shared/contracts/tag';
import { DateTime } from '../../components/common/DateTime';
import { useAllRows } from '../../components/list/use-client-list';

/** The "base info" tab: what the broadcast was created with, its recipients filter included. */
export function BroadcastBaseInfo({ broadcast: b }: { broadcast: Broadcast }) {
  const { t } = useTranslation();
  const { data: tags = [] } = useAllRows<Tag>('/tag');
  const tagName = (id: number) => tags.find((tag) => tag.id === id)?.name ?? `#${id}`;
  const f = b.contacts.filter;
  const filter = [
    f.tags?.length ? `${t('broadcasts.filter.tags')}: ${f.tags.map(tagName).join(', ')}` : null,
    f.ids?.length ? `${t('broadcasts.filter.ids')}: ${f.ids.join(', ')}` : null,
    f.address ? `${t('broadcasts.filter.address')}: ${f.address}` : null,
    ...(f.attributes ?? []).map((a) => `${t('broadcasts.filter.field')} ${a.field_id} = ${a.value}`),
    b.contacts.search ? `${t('broadcasts.filter.search')}: ${b.contacts.search}` : null,
  ].filter(Boolean);
  // A row whose value is null is left out (no alias, no note, a sender deleted since): a label with nothing beside it
  // reads as a fault.
  const rows: [string, ReactNode][] = (
    [
      ['broadcasts.fields.name', b.name],
      ['broadcasts.fields.alias', b.alias],
      ['broadcasts.fields.type', t(`broadcasts.types.${b.type}`)],
      ['broadcasts.fields.sender', b.sender ? (b.sender.name ? `${b.sender.name} <${b.sender.value}>` : b.sender.value) : null],
      ['broadcasts.fields.template', b.template?.name ?? null],
      ['broadcasts.fields.subscription', b.do_not_unsubscribe ? t('broadcasts.fields.do_not_unsubscribe') : (b.subscription?.name ?? null)],
      ['broadcasts.fields.skip_unsubscribed', b.skip_unsubscribed ? t('broadcasts.yes') : t('broadcasts.no')],
      ['broadcasts.fields.sleep', String(b.sleep)],
      ['broadcasts.fields.delayed_at', b.immediate ? t('broadcasts.fields.immediate') : b.delayed_at && <DateTime value={b.delayed_at} />],
      ['broadcasts.recipients', filter.length ? filter.join(' · ') : t('broadcasts.filter.everyone')],
      ['broadcasts.fields.note', b.note],
      ['list.columns.created_at', <DateTime value={b.created_at} />],
    ] as [string, ReactNode][]
  ).filter(([, value]) => value !== null && value !== undefined && value !== '');
  return (
    <Paper withBorder p="md" data-testid="broadcast-base-info">
      <Table>
        <Table.Tbody>
          {rows.map(([labelKey, value]) => (
            <Table.Tr key={labelKey} data-testid={`base-${labelKey.split('.').pop()}`}>
              <Table.Th w={220}>{t(labelKey)}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
