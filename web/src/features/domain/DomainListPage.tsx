import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { notifySuccess } from '../../components/common/notify';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { ShortListState } from '../../components/list/ShortListState';
import { pathOf } from '../../lib/route-table';
import { translateApiError } from '../../lib/server-messages';
import { useRouteTable } from '../../lib/services-context';
import { useDomains } from './api';
import { DomainAddModal } from './DomainAddModal';
import { DomainList } from './DomainList';

/** /domain: the organisation's sending domains (status, last check, senders on each) and "Add domain". */
export function DomainListPage() {
  const { t } = useTranslation();
  const table = useRouteTable();
  const [, navigate] = useLocation();
  const { data, error, isLoading, mutate } = useDomains();
  const [adding, setAdding] = useState(false);
  const rows = data?.items ?? [];

  return (
    <>
      <PageBreadcrumbs section="domains" />
      <Paper withBorder p="lg" data-testid="domains">
        <Stack>
          <Group justify="space-between">
            <Title order={2}>{t('domains.title')}</Title>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} data-testid="domain-add">
              {t('domains.add')}
            </Button>
          </Group>
          <Text size="sm" c="dimmed">
            {t('domains.intro')}
          </Text>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('domains.none')}>
            {() => <DomainList rows={rows} />}
          </ShortListState>
        </Stack>
      </Paper>
      <DomainAddModal
        opened={adding}
        onClose={() => setAdding(false)}
        onAdded={(row) => {
          setAdding(false);
          void mutate();
          notifySuccess(t('domains.added', { domain: row.domain }));
          // Next: the records to publish.
          navigate(pathOf(table, 'domain_view', { id: row.id }) ?? '/');
        }}
      />
    </>
  );
}
