import { Box, CopyButton, Tooltip, UnstyledButton } from '@mantine/core';
import { MESSAGE_KINDS, MESSAGE_OUTCOMES, MESSAGE_TYPES, type MessageListItem } from '@shared/contracts/message';
import type { Broadcast } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import { OutcomeBadge } from '../../components/common/OutcomeBadge';
import type { SelectFilterSpec } from '../../components/list/FilterSelect';
import { useAllRows } from '../../components/list/use-client-list';
import type { ListColumn } from '../../components/list/types';
import { KindBadges } from './KindBadges';

/**
 * The provider's id (the SMTP server's queue id or Twilio's SID; our Message-ID when the server named none) cut to 5
 * characters (spec 2), the whole of it on hover; a click copies it.
 */
function ExternalId({ value }: { value: string | null }) {
  const { t } = useTranslation();
  if (!value) return <>—</>;
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? t('messages.copied') : value}>
          <UnstyledButton onClick={copy} data-testid="external-id" data-value={value} fz="sm" ff="monospace">
            {value.length > 5 ? `${value.slice(0, 5)}…` : value}
          </UnstyledButton>
        </Tooltip>
      )}
    </CopyButton>
  );
}

function TypeLabel({ type }: { type: string }) {
  const { t } = useTranslation();
  return <>{t(`messages.types.${type}`)}</>;
}

/**
 * Message list columns. Sortable where an index with org_id first serves the order at a million messages (status,
 * creation, id); the API also sorts by the other columns, at the cost of sorting every matching message (README).
 */
export const MESSAGE_COLUMNS: ListColumn<MessageListItem>[] = [
  {
    key: 'to_address',
    labelKey: 'messages.fields.to_address',
    // On a phone the table scrolls sideways: the status rides with the address, in view without scrolling, and so
    // do the kind's and the sandbox's badges (on every width).
    render: (row) => (
      <>
        {row.to_address}
        <KindBadges row={row} />
        <Box hiddenFrom="sm" mt={4}>
          <OutcomeBadge row={row} />
        </Box>
      </>
    ),
  },
  { key: 'subject', labelKey: 'messages.fields.subject', render: (row) => row.subject ?? '' },
  // The outcome a person reads (Bounced, Reported as spam, Undelivered over Sent); sorting goes by the stored status.
  { key: 'status', labelKey: 'messages.fields.status', sortable: true, render: (row) => <OutcomeBadge row={row} /> },
  { key: 'type', labelKey: 'messages.fields.type', render: (row) => <TypeLabel type={row.type} /> },
  { key: 'external_id', labelKey: 'messages.fields.external_id', render: (row) => <ExternalId value={row.external_id} /> },
  { key: 'sent_at', labelKey: 'messages.fields.sent_at', render: (row) => <DateTime value={row.sent_at} /> },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

/** Broadcasts to filter messages by, newest first. */
function useBroadcastOptions() {
  const { data: broadcasts = [] } = useAllRows<Broadcast>('/broadcast', { sort_by: 'created_at', sort_order: 'desc' });
  return broadcasts.map((b) => ({ value: String(b.id), label: b.name }));
}

/**
 * The message list's filters: status, type, broadcast (spec 7) and kind (broadcast, test, transactional). The status
 * filter is by outcome (GET /message?outcome=bounced), so it offers what the chips say; `?status=` still works for
 * API clients.
 */
export const MESSAGE_FILTER_SPECS: SelectFilterSpec[] = [
  { name: 'outcome', labelKey: 'messages.fields.status', values: MESSAGE_OUTCOMES, optionsKey: 'messages.statuses' },
  { name: 'type', labelKey: 'messages.fields.type', values: MESSAGE_TYPES, optionsKey: 'messages.types' },
  { name: 'kind', labelKey: 'messages.fields.kind', values: MESSAGE_KINDS, optionsKey: 'messages.kinds', testId: 'message-kind-filter' },
  { name: 'broadcast_id', labelKey: 'messages.fields.broadcast', useOptions: useBroadcastOptions },
];
