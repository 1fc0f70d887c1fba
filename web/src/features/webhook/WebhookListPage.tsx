import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import type { Endpoint, EndpointTestResult } from '@shared/contracts/webhook';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/common/confirm';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { ShortListState } from '../../components/list/ShortListState';
import { translateApiError } from '../../lib/server-messages';
import { useWebhookCalls, useWebhooks } from './api';
import { EndpointFormModal } from './EndpointFormModal';
import { EndpointList } from './EndpointList';
import { SecretModal } from './SecretModal';

/** The form's state: closed, adding, or editing one endpoint. */
type Editing = { endpoint: Endpoint | null } | null;

/** /webhook: the organisation's webhook endpoints, "Add endpoint", and each one's actions. */
export function WebhookListPage() {
  const { t } = useTranslation();
  const calls = useWebhookCalls();
  const { data, error, isLoading, mutate } = useWebhooks();
  const [editing, setEditing] = useState<Editing>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [tested, setTested] = useState<{ endpoint: Endpoint; result: EndpointTestResult } | null>(null);
  const rows = data?.items ?? [];

  const fail = (failure: unknown) => notifyError(translateApiError(t, failure));
  const actions = {
    edit: (endpoint: Endpoint) => setEditing({ endpoint }),
    test: (endpoint: Endpoint) =>
      void calls
        .test(endpoint.id)
        .then((result) => setTested({ endpoint, result }))
        .catch(fail),
    rotate: (endpoint: Endpoint) =>
      confirmDelete({
        title: t('webhooks.rotateTitle'),
        message: t('webhooks.rotateMessage'),
        confirmLabel: t('webhooks.rotateSecret'),
        cancelLabel: t('common.cancel'),
        onConfirm: () =>
          void calls
            .rotateSecret(endpoint.id)
            .then((answer) => {
              setSecret(answer.secret);
              void mutate();
            })
            .catch(fail),
      }),
    remove: (endpoint: Endpoint) =>
      confirmDelete({
        title: t('webhooks.deleteTitle'),
        message: t('webhooks.deleteMessage', { url: endpoint.url }),
        confirmLabel: t('common.delete'),
        cancelLabel: t('common.cancel'),
        onConfirm: () =>
          void calls
            .remove(endpoint.id)
            .then(() => {
              void mutate();
              notifySuccess(t('webhooks.deleted'));
            })
            .catch(fail),
      }),
  };

  return (
    <>
      <PageBreadcrumbs section="webhooks" />
      <Paper withBorder p="lg" data-testid="webhooks">
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('webhooks.title')}</Title>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ endpoint: null })} data-testid="webhook-add">
              {t('webhooks.add')}
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {t('webhooks.intro')}
          </Text>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('webhooks.none')}>
            {() => <EndpointList rows={rows} actions={actions} />}
          </ShortListState>
        </Stack>
      </Paper>
      <EndpointFormModal
        endpoint={editing?.endpoint ?? null}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={(answer) => {
          setEditing(null);
          void mutate();
          notifySuccess(t('webhooks.saved'));
          if ('secret' in answer) setSecret(answer.secret);
        }}
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
      <TestResultModal tested={tested} onClose={() => setTested(null)} />
    </>
  );
}

/** What "Send test event" got back: the receiver's status and time, or the error. */
function TestResultModal({ tested, onClose }: { tested: { endpoint: Endpoint; result: EndpointTestResult } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const result = tested?.result;
  const ok = result && result.status !== null && result.status >= 200 && result.status < 300;
  return (
    <Modal opened={tested !== null} onClose={onClose} title={t('webhooks.testTitle')} data-testid="webhook-test-modal">
      {result && (
        <Stack>
          <Text size="sm" style={{ wordBreak: 'break-all' }}>
            {tested.endpoint.url}
          </Text>
          <Alert color={ok ? 'green' : 'red'} data-testid="webhook-test-result" data-ok={ok}>
            {result.status !== null ? t('webhooks.testStatus', { status: result.status, ms: result.ms }) : t('webhooks.testNoAnswer', { ms: result.ms })}
            {result.error && (
              <Text size="xs" mt={4}>
                {result.error}
              </Text>
            )}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('webhooks.close')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
