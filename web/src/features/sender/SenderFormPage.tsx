import { SENDER_TYPES, type Sender, type SenderInput, type SenderUpdate } from '@shared/contracts/sender';
import { useMemo } from 'react';
import type { PageProps } from '../../lib/route-table';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { useDictionary } from '../../lib/dictionary';
import { useAllIntegrations } from '../integration/api';
import { useSender, useSenderCalls } from './api';
import { adjustSenderValues, senderCreatePayload, senderFormFields, senderFormValues, senderUpdatePayload, validateSender } from './sender-config';

/** /sender/create and /sender/update/:id. */
export function SenderFormPage({ params }: PageProps) {
  const id = params.id ? Number(params.id) : null;
  const calls = useSenderCalls();
  const { data, error, isLoading, mutate } = useSender(id);
  const { integrations, isLoading: integrationsLoading } = useAllIntegrations();
  const types = useDictionary('address-types', SENDER_TYPES).filter((type): type is Sender['type'] => (SENDER_TYPES as readonly string[]).includes(type));
  const item = data?.data ?? null;
  const typesKey = types.join(',');
  const fields = useMemo(() => senderFormFields(typesKey.split(','), integrations, item), [typesKey, integrations, item]);

  const crumb = id ? { labelKey: 'common.edit', text: item?.value } : { labelKey: 'common.create' };
  const body = (
    <LoadState error={id ? error : null} loading={(id && (isLoading || !item)) || integrationsLoading}>
      {() => (
        <EntityForm<Sender, SenderInput | SenderUpdate>
          key={item?.id ?? 'new'}
          item={item}
          fields={fields}
          calls={calls}
          initial={senderFormValues}
          validate={(values) => validateSender(values, !item)}
          onFieldChange={(name, next) => (item ? next : adjustSenderValues(name, next, integrations))}
          toInput={(values) => (item ? senderUpdatePayload(values, item) : senderCreatePayload(values))}
          listRoute="sender_list"
          titleKey={id ? 'senders.editTitle' : 'senders.createTitle'}
          itemLabel={(saved) => saved.value}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
        />
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="senders" current={crumb} />
      {body}
    </>
  );
}
