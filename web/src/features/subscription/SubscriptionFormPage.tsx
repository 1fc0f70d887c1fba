import type { Subscription, SubscriptionInput } from '@shared/contracts/subscription';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useSubscription, useSubscriptionCalls } from './api';
import { SUBSCRIPTION_FIELDS, subscriptionInput } from './subscription-config';

/** /subscription/create and /subscription/update/:id: the shared entity form with the name. */
export function SubscriptionFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useSubscriptionCalls();
  const { data, error, isLoading, mutate } = useSubscription(id);
  const item = data?.data ?? null;

  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Subscription, SubscriptionInput>
          key={item?.id ?? 'new'}
          item={item}
          fields={SUBSCRIPTION_FIELDS}
          calls={calls}
          toInput={subscriptionInput}
          listRoute="subscription_list"
          titleKey={id ? 'subscriptions.editTitle' : 'subscriptions.createTitle'}
          itemLabel={(subscription) => subscription.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  return (
    <>
      <PageBreadcrumbs section="subscriptions" current={crumb} />
      {body}
    </>
  );
}
