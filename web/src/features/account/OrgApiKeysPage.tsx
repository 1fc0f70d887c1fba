import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { OrgKeyRow } from '@shared/contracts/org-api-key';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/common/confirm';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { ShortListState } from '../../components/list/ShortListState';
import { translateApiError } from '../../lib/server-messages';
import { useIsDemo } from './account-state';
import { ApiDocsLink } from './ApiDocsLink';
import { useAccountCalls, useOrgKeys } from './api';
import { OrgKeyCreateModal } from './OrgKeyCreateModal';
import { OrgKeyList } from './OrgKeyList';

/**
 * /me/organization-keys: the organisation's API keys for its software (name, scope, live or test, the visible prefix,
 * who made it, when, when it was last used); create one (shown once) or revoke one. Revoked keys stay listed, greyed.
 */
export function OrgApiKeysPage() {
  const { t } = useTranslation();
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const { data, error, isLoading, mutate } = useOrgKeys();
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);
  const rows = data?.items ?? [];

  const revoke = (row: OrgKeyRow) =>
    confirmDelete({
      title: t('orgKeys.revokeTitle'),
      message: t('orgKeys.revokeMessage', { name: row.name }),
      confirmLabel: t('orgKeys.revoke'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        setBusy(row.id);
        try {
          const revoked = await calls.revokeOrgKey(row.id);
          await mutate({ items: rows.map((r) => (r.id === row.id ? revoked : r)) }, { revalidate: false });
          notifySuccess(t('orgKeys.revoked', { name: row.name }));
        } catch (failure) {
          notifyError(translateApiError(t, failure));
        } finally {
          setBusy(null);
        }
      },
    });

  return (
    <AccountLayout>
      <Paper withBorder p="lg" data-testid="org-keys">
        <Stack>
          <Group justify="space-between">
            <Title order={3}>{t('orgKeys.title')}</Title>
            <Group gap="xs">
              <ApiDocsLink label={t('orgKeys.docs')} testId="org-keys-docs" />
              <Button leftSection={<IconPlus size={16} />} disabled={demo} onClick={() => setCreating(true)} data-testid="org-key-create">
                {t('orgKeys.create')}
              </Button>
            </Group>
          </Group>
          <Text size="sm" c="dimmed">
            {t('orgKeys.intro')}
          </Text>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('orgKeys.none')}>
            {() => <OrgKeyList rows={rows} demo={demo} busy={busy} onRevoke={revoke} />}
          </ShortListState>
        </Stack>
      </Paper>
      <OrgKeyCreateModal
        opened={creating}
        onClose={() => setCreating(false)}
        onCreated={(row) => {
          // The key itself stays in the dialog only: the list keeps the row without it.
          const { key: _secret, ...listed } = row;
          void mutate({ items: [listed, ...rows] }, { revalidate: true });
        }}
      />
    </AccountLayout>
  );
}
