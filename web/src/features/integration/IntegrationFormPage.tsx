import { Alert, Button, Code, Text } from '@mantine/core';
import { INTEGRATION_TYPES, type Integration, type IntegrationInput, type IntegrationTestResult, type IntegrationUpdate } from '@shared/contracts/integration';
import { IconKey, IconPlugConnected } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { PageProps } from '../../lib/route-table';
import { pathOf } from '../../lib/route-table';
import { useRouteTable, useServices } from '../../lib/services-context';
import { EntityForm } from '../../components/form/EntityForm';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { translateApiError } from '../../lib/server-messages';
import { useDictionary } from '../../lib/dictionary';
import { testIntegrationConnection, useIntegration, useIntegrationCalls } from './api';
import { integrationCreatePayload, integrationFormFields, integrationFormValues, integrationUpdatePayload, validateIntegration } from './integration-config';

type TestAnswer = IntegrationTestResult & { server_reply?: string | null };
type TestState = { running: boolean; result: TestAnswer | null; error: string | null };

/** 'Test connection' of a saved smtp integration: the server connects (and logs in) and says how it went. */
function useConnectionTest(integration: Integration | null) {
  const { t } = useTranslation();
  const { client } = useServices();
  const [state, setState] = useState<TestState>({ running: false, result: null, error: null });
  const run = async () => {
    if (!integration) return;
    setState({ running: true, result: null, error: null });
    try {
      setState({ running: false, result: await testIntegrationConnection(client, integration.id), error: null });
    } catch (error) {
      setState({ running: false, result: null, error: translateApiError(t, error) });
    }
  };
  return { run, state };
}

/** The connection test's answer in words (and the server's own reply, when there is one). */
function ConnectionTestResult({ state }: { state: TestState }) {
  const { t } = useTranslation();
  if (state.error) {
    return (
      <Alert color="red" title={t('integrations.testFailed')} data-testid="integration-test-result" data-ok="false">
        {state.error}
      </Alert>
    );
  }
  if (!state.result) {
    return (
      <Text size="sm" c="dimmed">
        {t('integrations.testHint')}
      </Text>
    );
  }
  const { ok, message, server_reply: reply } = state.result;
  return (
    <Alert
      color={ok ? 'green' : 'red'}
      title={t(ok ? 'integrations.testOk' : 'integrations.testFailed')}
      data-testid="integration-test-result"
      data-ok={ok ? 'true' : 'false'}
    >
      <Text size="sm">{message}</Text>
      {reply && (
        <Code block mt="xs">
          {reply}
        </Code>
      )}
    </Alert>
  );
}

/** /integration/create and /integration/update/:id. */
export function IntegrationFormPage({ params }: PageProps) {
  const { t } = useTranslation();
  const id = params.id ? Number(params.id) : null;
  const calls = useIntegrationCalls();
  const table = useRouteTable();
  const { data, error, isLoading, mutate } = useIntegration(id);
  const types = useDictionary('integration-types', INTEGRATION_TYPES);
  const item = data?.data ?? null;
  const fields = useMemo(() => integrationFormFields(types, !item, item?.webhook_url ?? null), [types, item]);
  const test = useConnectionTest(item);

  const crumb = id ? { labelKey: 'common.edit', text: item?.name } : { labelKey: 'common.create' };
  const credentialsHref = item ? pathOf(table, 'integration_credentials', { id: item.id }) : null;
  const body = (
    <LoadState error={id ? error : null} loading={Boolean(id && (isLoading || !item))}>
      {() => (
        <EntityForm<Integration, IntegrationInput | IntegrationUpdate>
          key={item?.id ?? 'new'}
          item={item}
          fields={fields}
          calls={calls}
          initial={integrationFormValues}
          validate={(values) => validateIntegration(values, !item)}
          toInput={(values) => (item ? integrationUpdatePayload(values, item) : integrationCreatePayload(values))}
          listRoute="integration_list"
          titleKey={id ? 'integrations.editTitle' : 'integrations.createTitle'}
          itemLabel={(saved) => saved.name}
          onSaved={(saved) => void mutate({ data: saved }, { revalidate: false })}
          actions={
            <>
              {item?.type === 'smtp' && (
                <Button
                  variant="light"
                  leftSection={<IconPlugConnected size={16} />}
                  loading={test.state.running}
                  onClick={() => void test.run()}
                  data-testid="integration-test"
                >
                  {t('integrations.testConnection')}
                </Button>
              )}
              {credentialsHref && (
                <Link href={credentialsHref} asChild>
                  <Button component="a" href={credentialsHref} variant="subtle" leftSection={<IconKey size={16} />} data-testid="integration-credentials">
                    {t('integrations.credentials')}
                  </Button>
                </Link>
              )}
            </>
          }
        >
          {item?.type === 'smtp' && <ConnectionTestResult state={test.state} />}
        </EntityForm>
      )}
    </LoadState>
  );
  return (
    <>
      <PageBreadcrumbs section="integrations" current={crumb} />
      {body}
    </>
  );
}
