import { ActionIcon, Badge, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { RECIPIENT_STATUSES, type Broadcast, type BroadcastRecipient } from '@shared/contracts/broadcast';
import { DeliveryBadge } from '../engagement/labels';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import type { ListColumn } from '../../components/list/types';
import { recipientsListHook, useListedRecipients } from './api';
import { translateServerMessage } from '../../lib/server-messages';

type Row = BroadcastRecipient & { id: number };

const STATUS_COLOR: Record<string, string> = { queued: 'cyan', sent: 'green', failed: 'red', skipped: 'gray' };

function Reason({ text }: { text: string | null }) {
  const { t } = useTranslation();
  return <>{text ? translateServerMessage(t, text) : ''}</>;
}

function StatusChip({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {t(`messages.statuses.${status}`)}
    </Badge>
  );
}

const COLUMNS: ListColumn<Row>[] = [
  { key: 'contact_name', labelKey: 'broadcasts.recipientColumns.contact', render: (r) => r.contact_name ?? '—' },
  { key: 'address', labelKey: 'broadcasts.recipientColumns.address', render: (r) => r.address || '—' },
  { key: 'status', labelKey: 'broadcasts.fields.status', render: (r) => <StatusChip status={r.status} /> },
  { key: 'reason', labelKey: 'broadcasts.recipientColumns.reason', render: (r) => <Reason text={r.reason} /> },
  { key: 'sent_at', labelKey: 'broadcasts.recipientColumns.sent_at', render: (r) => <DateTime value={r.sent_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** An SMS broadcast's recipients also show the provider's delivery report (delivered, undelivered with its code). */
const SMS_COLUMNS: ListColumn<Row>[] = [
  ...COLUMNS.slice(0, 4),
  {
    key: 'delivery_status',
    labelKey: 'engagement.delivery',
    render: (r) => (r.status === 'sent' ? <DeliveryBadge status={r.delivery_status} errorCode={r.delivery_error_code} /> : ''),
  },
  ...COLUMNS.slice(4),
];

/** A broadcast's recipients filtered by their message's status. */
const RECIPIENT_FILTERS = selectFilters([
  { name: 'status', labelKey: 'broadcasts.fields.status', values: RECIPIENT_STATUSES, optionsKey: 'messages.statuses' },
]);

/** The "recipients data" tab: every recipient with the address used and what became of its message. */
export function RecipientsTab({ broadcast }: { broadcast: Pick<Broadcast, 'id' | 'type' | 'total' | 'recipients_final'> }) {
  const { t } = useTranslation();
  const broadcastId = broadcast.id;
  // The broadcast's figures are its history; a message deleted since (or archived past retention) leaves the list.
  const listed = useListedRecipients(broadcastId);
  const gone = broadcast.recipients_final && listed !== null ? broadcast.total - listed : 0;
  const table = useRouteTable();
  const useRecipients = useMemo(() => recipientsListHook(broadcastId), [broadcastId]);
  return (
    <ListScreen<Row>
      listKey="broadcast-recipients"
      titleKey="broadcasts.tabs.recipients"
      columns={broadcast.type === 'phone' ? SMS_COLUMNS : COLUMNS}
      footer={
        gone > 0 ? (
          <Text size="sm" c="dimmed" data-testid="recipients-gone">
            {t('broadcasts.recipientsGone', { count: gone, total: broadcast.total })}
          </Text>
        ) : undefined
      }
      defaultSort={{ key: 'id', order: 'asc' }}
      useList={useRecipients}
      filters={RECIPIENT_FILTERS}
      rowActions={(row) => {
        const href = pathOf(table, 'message_view', { id: row.message_id });
        return href ? (
          <Link href={href} asChild>
            <ActionIcon component="a" href={href} variant="subtle" aria-label={t('messages.view')} title={t('messages.view')} data-testid="row-view">
              <IconEye size={16} />
            </ActionIcon>
          </Link>
        ) : null;
      }}
    />
  );
}
