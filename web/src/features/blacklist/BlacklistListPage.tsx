import type { BlacklistEntry } from '@shared/contracts/blacklist';
import { ListScreen } from '../../components/list/ListScreen';
import { useBlacklistCalls, useBlacklistList } from './api';
import { BLACKLIST_COLUMNS, BLACKLIST_FILTERS } from './blacklist-config';

/** /blacklist: blocked addresses, server-paged, newest first; entries are created and deleted, never edited. */
export function BlacklistListPage() {
  const calls = useBlacklistCalls();
  return (
    <ListScreen<BlacklistEntry>
      listKey="blacklist"
      section="blacklist"
      titleKey="blacklist.title"
      columns={BLACKLIST_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      createRoute="blacklist_create"
      calls={calls}
      useList={useBlacklistList}
      filters={BLACKLIST_FILTERS}
      itemLabel={(entry) => entry.value}
    />
  );
}
