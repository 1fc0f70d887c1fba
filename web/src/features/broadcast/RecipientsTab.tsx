import { ActionIcon, Badge } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { RECIPIENT_STATUSES, type BroadcastRecipient } from '@shared/contracts/broadcast';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import type { ListColumn } from '../../components/list/types';
import { recipientsListHook } from './api';
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

/** A broadcast's recipients filtered by their message's status. */
const RECIPIENT_FILTERS = selectFilters([
  { name: 'status', labelKey: 'broadcasts.fields.status', values: RECIPIENT_STATUSES, optionsKey: 'messages.statuses' },
]);

/** The "recipients data" tab: every recipient with the address used and what became of its message. */
export function RecipientsTab({ broadcastId }: { broadcastId: number }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const useRecipients = useMemo(() => recipientsListHook(broadcastId), [broadcastId]);
  return (
    <ListScreen<Row>
      listKey="broadcast-recipients"
      titleKey="broadcasts.tabs.recipients"
      columns={COLUMNS}
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
