import { ActionIcon, Box, Group, Text } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { Broadcast, BroadcastRecipient } from '@shared/contracts/broadcast';
import { MESSAGE_OUTCOMES } from '@shared/contracts/message';
import { DeliveryBadge } from '../engagement/labels';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { OutcomeBadge } from '../../components/common/OutcomeBadge';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import type { ListColumn } from '../../components/list/types';
import { recipientsListHook, useListedRecipients } from './api';
import { translateServerMessage } from '../../lib/server-messages';

type Row = BroadcastRecipient & { id: number };

function Reason({ text }: { text: string | null }) {
  const { t } = useTranslation();
  return <>{text ? translateServerMessage(t, text) : ''}</>;
}

/**
 * On a phone the table scrolls sideways: the first column also carries the address, the status and the reason, so
 * what became of each recipient is in view without scrolling (as the message list does with its status).
 */
function ContactCell({ row }: { row: Row }) {
  return (
    <>
      {row.contact_name ?? '—'}
      <Box hiddenFrom="sm" mt={4} data-testid="recipient-compact">
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {row.address || '—'}
        </Text>
        <Group gap={6} mt={2} wrap="wrap">
          <OutcomeBadge row={row} />
          {row.reason && (
            <Text size="xs" c="dimmed" data-testid="recipient-compact-reason">
              <Reason text={row.reason} />
            </Text>
          )}
        </Group>
      </Box>
    </>
  );
}

const COLUMNS: ListColumn<Row>[] = [
  { key: 'contact_name', labelKey: 'broadcasts.recipientColumns.contact', render: (r) => <ContactCell row={r} /> },
  { key: 'address', labelKey: 'broadcasts.recipientColumns.address', render: (r) => r.address || '—' },
  // What became of the message as a person reads it: a bounce, a spam report, an undelivered SMS over "Sent".
  { key: 'status', labelKey: 'broadcasts.fields.status', render: (r) => <OutcomeBadge row={r} /> },
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

/** A broadcast's recipients filtered by what became of their message, as the status chips say (`?outcome=`). */
const RECIPIENT_FILTERS = selectFilters([{ name: 'outcome', labelKey: 'broadcasts.fields.status', values: MESSAGE_OUTCOMES, optionsKey: 'messages.statuses' }]);

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
