import { ActionIcon } from '@mantine/core';
import { IconCopy, IconEye } from '@tabler/icons-react';
import { BROADCAST_STATUSES, BROADCAST_TYPES, type Broadcast } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useBroadcastList } from './api';
import { BROADCAST_COLUMNS } from './broadcast-config';
import { useBroadcastProgressFeed } from './live-progress';

/** The list's filters: status and type (GET /broadcast?status=&type=). */
const BROADCAST_FILTERS = selectFilters([
  { name: 'status', labelKey: 'broadcasts.fields.status', values: BROADCAST_STATUSES, optionsKey: 'broadcasts.statuses' },
  { name: 'type', labelKey: 'broadcasts.fields.type', values: BROADCAST_TYPES, optionsKey: 'broadcasts.types' },
]);

/** A row's view and duplicate actions (spec 2). */
function BroadcastRowActions({ row }: { row: Broadcast }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const view = pathOf(table, 'broadcast_view', { id: row.id });
  const create = pathOf(table, 'broadcast_create');
  const duplicate = create ? `${create}?source=${row.id}` : null;
  return (
    <>
      {view && (
        <Link href={view} asChild>
          <ActionIcon component="a" href={view} variant="subtle" aria-label={t('broadcasts.view')} title={t('broadcasts.view')} data-testid="row-view">
            <IconEye size={16} />
          </ActionIcon>
        </Link>
      )}
      {duplicate && (
        <Link href={duplicate} asChild>
          <ActionIcon
            component="a"
            href={duplicate}
            variant="subtle"
            aria-label={t('broadcasts.duplicate')}
            title={t('broadcasts.duplicate')}
            data-testid="row-duplicate"
          >
            <IconCopy size={16} />
          </ActionIcon>
        </Link>
      )}
    </>
  );
}

/** /broadcast: server-paged broadcasts with live status and progress; rows open or duplicate a broadcast. */
export function BroadcastListPage() {
  useBroadcastProgressFeed();
  return (
    <ListScreen<Broadcast>
      listKey="broadcast"
      section="broadcasts"
      titleKey="broadcasts.title"
      columns={BROADCAST_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      createRoute="broadcast_create"
      useList={useBroadcastList}
      itemLabel={(b) => b.name}
      filters={BROADCAST_FILTERS}
      rowActions={(row) => <BroadcastRowActions row={row} />}
    />
  );
}
