import type { Subscription } from '@shared/contracts/subscription';
import { ListScreen } from '../../components/list/ListScreen';
import { useSubscriptionCalls, useSubscriptionList } from './api';
import { SUBSCRIPTION_COLUMNS } from './subscription-config';

/** /subscription: subscription categories, server-paged and drag-reorderable (default sort priority ascending). */
export function SubscriptionListPage() {
  const calls = useSubscriptionCalls();
  return (
    <ListScreen<Subscription>
      listKey="subscription"
      section="subscriptions"
      titleKey="subscriptions.title"
      columns={SUBSCRIPTION_COLUMNS}
      defaultSort={{ key: 'priority', order: 'asc' }}
      reorderable
      createRoute="subscription_create"
      updateRoute="subscription_update"
      calls={calls}
      useList={useSubscriptionList}
      itemLabel={(subscription) => subscription.name}
    />
  );
}
