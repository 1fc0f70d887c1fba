import type { Sender } from '@shared/contracts/sender';
import { ListScreen } from '../../components/list/ListScreen';
import { useSenderCalls, useSenderList } from './api';
import { SENDER_COLUMNS } from './sender-config';

/** /sender: server-paged, drag-reorderable sender list (default order: priority). */
export function SenderListPage() {
  const calls = useSenderCalls();
  return (
    <ListScreen<Sender>
      listKey="sender"
      section="senders"
      titleKey="senders.title"
      columns={SENDER_COLUMNS}
      defaultSort={{ key: 'priority', order: 'asc' }}
      reorderable
      createRoute="sender_create"
      updateRoute="sender_update"
      calls={calls}
      useList={useSenderList}
      itemLabel={(sender) => sender.value}
    />
  );
}
