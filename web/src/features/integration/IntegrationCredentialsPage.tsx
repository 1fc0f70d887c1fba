import { Alert, Center, Loader } from '@mantine/core';
import type { Integration } from '@shared/contracts/integration';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../lib/route-table';
import { useServices } from '../../lib/services-context';
import { EntityForm } from '../../components/form/EntityForm';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { translateApiError } from '../../lib/server-messages';
import { credentialsCalls, useIntegration } from './api';
import { credentialsFields, credentialsPayload, credentialsValues } from './integration-config';
import type { ReactNode } from 'react';

/**
 * /integration/update/:id/credentials: a new user and password (smtp) or account SID and auth token (twilio).
 * Saving PATCHes /integration/{id}/{type}/credentials, refetches the integration list and says so.
 */
export function IntegrationCredentialsPage({ params }: PageProps) {
  const { t } = useTranslation();
  const { client } = useServices();
  const id = Number(params.id);
  const { data, error, isLoading, mutate } = useIntegration(Number.isInteger(id) && id > 0 ? id : null);
  const item = data?.data ?? null;
  const calls = useMemo(() => (item ? credentialsCalls(client, item) : null), [client, item]);

  let body: ReactNode;
  if (error) body = <Alert color="red">{translateApiError(t, error)}</Alert>;
  else if (isLoading || !item || !calls)
    body = (
      <Center p="xl">
        <Loader />
      </Center>
    );
  else
    body = (
      <EntityForm<Integration, Record<string, string>>
        key={item.id}
        item={item}
        fields={credentialsFields(item.type)}
        calls={calls}
        initial={() => credentialsValues(item)}
        toInput={(values) => credentialsPayload(values, item.type)}
        listRoute="integration_list"
        titleKey={item.type === 'smtp' ? 'integrations.credentialsSmtpTitle' : 'integrations.credentialsTwilioTitle'}
        itemLabel={(saved) => saved.name}
        deletable={false}
        successKey="integrations.credentialsSaved"
        onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
      />
    );
  return (
    <>
      <PageBreadcrumbs
        section="integrations"
        current={{ labelKey: 'integrations.credentials', text: item ? `${item.name} · ${t('integrations.credentials')}` : undefined }}
      />
      {body}
    </>
  );
}
