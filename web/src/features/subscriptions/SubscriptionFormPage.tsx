import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import type { Subscription, SubscriptionInput } from '@shared/contracts/subscription';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf, type PageProps } from '../../app/route-table';
import { useRouteTable } from '../../app/services-context';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { useSubscription, useSubscriptionCalls } from './api';
import { SUBSCRIPTION_FIELDS, subscriptionInput } from './subscription-config';

/** /subscription/create and /subscription/update/:id: the shared entity form with the name. */
export function SubscriptionFormPage({ params }: PageProps) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const id = params.id ? Number(params.id) : null;
  const calls = useSubscriptionCalls();
  const { data, error, isLoading, mutate } = useSubscription(id);
  const item = data?.data ?? null;
  const listHref = pathOf(table, 'subscription_list');

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
  return (
    <>
      {/* Subscriptions are not one of the navigation's sections: a trail back to their list. */}
      <Breadcrumbs data-testid="breadcrumbs" mb="md">
        {listHref ? (
          <Link href={listHref} asChild>
            <Anchor href={listHref}>{t('subscriptions.title')}</Anchor>
          </Link>
        ) : (
          <Text c="dimmed">{t('subscriptions.title')}</Text>
        )}
        <Text c="dimmed">{id ? (item?.name ?? t('common.edit')) : t('common.create')}</Text>
      </Breadcrumbs>
      {body}
    </>
  );
}
