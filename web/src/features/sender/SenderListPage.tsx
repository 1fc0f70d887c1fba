import type { Sender } from '@shared/contracts/sender';
import { SENDER_TYPES } from '@shared/contracts/sender';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useAllIntegrations } from '../integration/api';
import { useSenderCalls, useSenderList } from './api';
import { SENDER_COLUMNS } from './sender-config';

/** The organisation's integrations to filter senders by. */
function useIntegrationOptions() {
  const { integrations } = useAllIntegrations();
  return integrations.map((integration) => ({ value: String(integration.id), label: integration.name }));
}

/** The list's filters: the sender type and its integration (GET /sender?type=&integration_id=). */
const SENDER_FILTERS = selectFilters([
  { name: 'type', labelKey: 'senders.fields.type', values: SENDER_TYPES, optionsKey: 'senders.types' },
  { name: 'integration_id', labelKey: 'senders.fields.integration', useOptions: useIntegrationOptions },
]);

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
      filters={SENDER_FILTERS}
    />
  );
}
