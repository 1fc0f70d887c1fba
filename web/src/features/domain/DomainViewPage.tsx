import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { DomainRow } from '@shared/contracts/domain';
import { IconKey, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { confirmDelete } from '../../components/common/confirm';
import { DateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { pathOf, type PageProps } from '../../lib/route-table';
import { translateApiError } from '../../lib/server-messages';
import { useRouteTable } from '../../lib/services-context';
import { useDomain, useDomainCalls } from './api';
import { DomainAlignment } from './DomainAlignment';
import { DomainRecordCard } from './DomainRecordCard';
import { DomainStatusBadge } from './domain-status';

/** /domain/view/:id: a domain's records to publish with their last check, its DMARC alignment, and its actions. */
export function DomainViewPage({ params }: PageProps) {
  const id = Number(params.id);
  const { data, error, isLoading, mutate } = useDomain(id);
  const row = data?.data ?? null;
  return (
    <>
      <PageBreadcrumbs section="domains" current={{ labelKey: 'domains.view', text: row?.domain }} />
      <LoadState error={error} loading={isLoading || !row}>
        {() => <DomainDetail row={row as DomainRow} onChange={(next) => void mutate({ data: next }, { revalidate: false })} />}
      </LoadState>
    </>
  );
}

type Busy = 'check' | 'rotate' | 'delete' | null;

function DomainDetail({ row, onChange }: { row: DomainRow; onChange: (row: DomainRow) => void }) {
  const { t } = useTranslation();
  const calls = useDomainCalls();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState<Busy>(null);
  const rotating = row.next_dkim_selector !== null;

  /** Runs one action, showing its failure (e.g. "Verify the domain first") as a message. */
  const run = async (action: Exclude<Busy, null>, call: () => Promise<void>) => {
    setBusy(action);
    try {
      await call();
    } catch (failure) {
      notifyError(translateApiError(t, failure));
    } finally {
      setBusy(null);
    }
  };
  const check = () =>
    run('check', async () => {
      onChange(await calls.check(row.id));
      notifySuccess(t('domains.checked', { domain: row.domain }));
    });
  const rotate = () =>
    confirmDelete({
      title: t('domains.rotateTitle'),
      message: t('domains.rotateMessage'),
      confirmLabel: t('domains.rotateConfirm'),
      cancelLabel: t('common.cancel'),
      onConfirm: () =>
        void run('rotate', async () => {
          onChange(await calls.rotateKey(row.id));
          notifySuccess(t('domains.rotated', { domain: row.domain }));
        }),
    });
  const remove = () =>
    confirmDelete({
      title: t('domains.deleteTitle', { domain: row.domain }),
      message: t('domains.deleteMessage'),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: () =>
        void run('delete', async () => {
          await calls.remove(row.id);
          notifySuccess(t('domains.deleted', { domain: row.domain }));
          navigate(pathOf(table, 'domain_list') ?? '/');
        }),
    });

  return (
    <Stack data-testid="domain-detail" data-status={row.status}>
      <Paper withBorder p="lg" style={row.status === 'broken' ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}>
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start">
            <Group gap="sm">
              <Title order={2} style={{ wordBreak: 'break-all' }} data-testid="domain-name">
                {row.domain}
              </Title>
              <DomainStatusBadge status={row.status} />
            </Group>
            <Group gap="xs">
              <Button
                leftSection={<IconRefresh size={16} />}
                loading={busy === 'check'}
                disabled={busy !== null}
                onClick={() => void check()}
                data-testid="domain-check"
              >
                {t('domains.check')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconKey size={16} />}
                loading={busy === 'rotate'}
                disabled={busy !== null || rotating || row.status === 'pending' || row.status === 'lost'}
                title={rotating ? t('domains.messages.rotationPending') : undefined}
                onClick={rotate}
                data-testid="domain-rotate"
              >
                {t('domains.rotate')}
              </Button>
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                loading={busy === 'delete'}
                disabled={busy !== null}
                onClick={remove}
                data-testid="domain-delete"
              >
                {t('domains.delete')}
              </Button>
            </Group>
          </Group>
          <StatusExplained row={row} />
          <Group gap="lg">
            <Text size="sm" c="dimmed" data-testid="domain-checked-at">
              {t('domains.fields.checkedAt')}: {row.checked_at ? <DateTime value={row.checked_at} /> : t('domains.neverChecked')}
            </Text>
            <Text size="sm" c="dimmed">
              {t('domains.fields.selector')}: <code>{row.dkim_selector}</code>
            </Text>
            <Text size="sm" c="dimmed">
              {t('domains.fields.senders')}: {row.senders}
            </Text>
          </Group>
        </Stack>
      </Paper>
      {rotating && (
        <Alert color="blue" title={t('domains.rotatingTitle')} data-testid="domain-rotating">
          {t('domains.rotating', { selector: row.next_dkim_selector })}
        </Alert>
      )}
      <Title order={3}>{t('domains.recordsTitle')}</Title>
      <Text size="sm" c="dimmed">
        {t('domains.recordsIntro')}
      </Text>
      {row.records.map((record) => (
        <DomainRecordCard key={`${record.kind}-${record.name}`} record={record} />
      ))}
      <DomainAlignment alignment={row.alignment} />
    </Stack>
  );
}

/** What the domain's status means now; a broken one says since when, in red. */
function StatusExplained({ row }: { row: DomainRow }) {
  const { t } = useTranslation();
  if (row.status === 'broken') {
    return (
      <Alert color="red" data-testid="domain-broken">
        {t('domains.statusHints.broken')}{' '}
        {row.broken_since && (
          <>
            {t('domains.brokenSince')} <DateTime value={row.broken_since} />
          </>
        )}
      </Alert>
    );
  }
  return (
    <Text size="sm" data-testid="domain-status-hint">
      {t(`domains.statusHints.${row.status}`)}
    </Text>
  );
}
