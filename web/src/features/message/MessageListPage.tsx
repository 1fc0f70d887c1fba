import { ActionIcon } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import type { MessageListItem } from '@shared/contracts/message';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
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
 * /message: server-paged messages with status, type and broadcast filters (?broadcast_id= preselects one); view and
 * delete; beneath, where messages past the retention went and their monthly archives.
 */
export function MessageListPage() {
  const calls = useMessageCalls();
  const fromUrl = new URLSearchParams(useSearch()).get('broadcast_id');
  const filters = useMemo(() => selectFilters(MESSAGE_FILTER_SPECS, fromUrl ? { broadcast_id: fromUrl } : {}), [fromUrl]);
  return (
    <ListScreen<MessageListItem>
      key={fromUrl ?? 'all'}
      listKey="message"
      section="messages"
      titleKey="messages.title"
      columns={MESSAGE_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      calls={calls}
      useList={useMessageList}
      itemLabel={(m) => m.to_address || `#${m.id}`}
      filters={filters}
      rowActions={(row) => <ViewAction row={row} />}
      footer={<MessageArchivePanel />}
    />
  );
}
