import { ActionIcon } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { MessageListItem } from '@shared/contracts/message';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useMessageCalls, useMessageList } from './api';
import { MessageArchivePanel } from './MessageArchivePanel';
import { MESSAGE_COLUMNS, MESSAGE_FILTER_SPECS } from './message-config';

function ViewAction({ row }: { row: MessageListItem }) {
  const { t } = useTranslation();
  const href = pathOf(useRouteTable(), 'message_view', { id: row.id });
  if (!href) return null;
  return (
    <Link href={href} asChild>
      <ActionIcon component="a" href={href} variant="subtle" aria-label={t('messages.view')} title={t('messages.view')} data-testid="row-view">
        <IconEye size={16} />
      </ActionIcon>
    </Link>
  );
}

/**
 * The filters live in the address (/message?kind=transactional&outcome=bounced, ?broadcast_id= from a link): a link
 * or a reload shows the same messages.
 */
const MESSAGE_FILTERS = selectFilters(MESSAGE_FILTER_SPECS, {}, { inUrl: true });

/**
 * /message: server-paged messages with status, type, kind and broadcast filters kept in the address; view and
 * delete; beneath, where messages past the retention went and their monthly archives.
 */
export function MessageListPage() {
  const calls = useMessageCalls();
  return (
    <ListScreen<MessageListItem>
      listKey="message"
      section="messages"
      titleKey="messages.title"
      columns={MESSAGE_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      calls={calls}
      useList={useMessageList}
      itemLabel={(m) => m.to_address || `#${m.id}`}
      filters={MESSAGE_FILTERS}
      rowActions={(row) => <ViewAction row={row} />}
      footer={<MessageArchivePanel />}
    />
  );
}
