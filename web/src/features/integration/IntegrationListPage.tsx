import { ActionIcon, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { INTEGRATION_STATUSES, INTEGRATION_TYPES, type Integration } from '@shared/contracts/integration';
import { IconKey, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { selectFilters } from '../../components/list/FilterSelect';
import { ListScreen } from '../../components/list/ListScreen';
import { useInvalidateList } from '../../lib/list-revision';
import { INTEGRATION_PATH, useIntegrationCalls, useIntegrationList, useIntegrationSync } from './api';
import { canSync, INTEGRATION_COLUMNS } from './integration-config';
import { isApiError } from '../../lib/api-error';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';

/** The list's filters: the integration type and status (GET /integration?type=&status=). */
const INTEGRATION_FILTERS = selectFilters([
  { name: 'type', labelKey: 'integrations.fields.type', values: INTEGRATION_TYPES, optionsKey: 'integrations.types' },
  { name: 'status', labelKey: 'integrations.fields.status', values: INTEGRATION_STATUSES, optionsKey: 'integrations.statuses' },
]);

/** The credentials and sync actions of one row (sync only for twilio, disabled while merging, after a confirmation). */
function IntegrationRowActions({ row }: { row: Integration }) {
  const { t } = useTranslation();
  const table = useRouteTable();
  const requestSync = useIntegrationSync();
  const invalidate = useInvalidateList();
  const [busy, setBusy] = useState(false);
  const credentialsHref = pathOf(table, 'integration_credentials', { id: row.id });

  const sync = async () => {
    setBusy(true);
    try {
      await requestSync(row.id);
      notifySuccess(t('integrations.syncQueued', { name: row.name }));
    } catch (error) {
      notifyError(isApiError(error) && error.message ? translateServerMessage(t, error.message) : translateApiError(t, error));
      // The row may have changed meanwhile (a sync already running): show the server's state.
      invalidate(INTEGRATION_PATH);
    } finally {
      setBusy(false);
    }
  };

  const confirmSync = () =>
    modals.openConfirmModal({
      title: t('integrations.syncTitle'),
      children: <Text size="sm">{t('integrations.syncConfirm', { name: row.name })}</Text>,
      labels: { confirm: t('integrations.sync'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'confirm-ok' },
      cancelProps: { 'data-testid': 'confirm-cancel' },
      onConfirm: () => void sync(),
    });

  return (
    <>
      {credentialsHref && (
        <Link href={credentialsHref} asChild>
          <ActionIcon
            component="a"
            href={credentialsHref}
            variant="subtle"
            aria-label={t('integrations.credentials')}
            title={t('integrations.credentials')}
            data-testid="row-credentials"
          >
            <IconKey size={16} />
          </ActionIcon>
        </Link>
      )}
      {canSync(row) && (
        <ActionIcon
          variant="subtle"
          aria-label={t('integrations.sync')}
          title={row.status === 'merging' ? t('integrations.syncRunning') : t('integrations.sync')}
          data-testid="row-sync"
          disabled={busy || row.status === 'merging'}
          onClick={confirmSync}
        >
          <IconRefresh size={16} />
        </ActionIcon>
      )}
    </>
  );
}

/** /integration: all integrations (not server-paged), drag-reorderable, with credentials and sync row actions. */
export function IntegrationListPage() {
  const calls = useIntegrationCalls();
  return (
    <ListScreen<Integration>
      listKey="integration"
      section="integrations"
      titleKey="integrations.title"
      columns={INTEGRATION_COLUMNS}
      defaultSort={{ key: 'priority', order: 'asc' }}
      reorderable
      paged={false}
      createRoute="integration_create"
      updateRoute="integration_update"
      calls={calls}
      useList={useIntegrationList}
      itemLabel={(integration) => integration.name}
      filters={INTEGRATION_FILTERS}
      rowActions={(row) => <IntegrationRowActions row={row} />}
    />
  );
}
