import { ActionIcon, Anchor, Badge, Button, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { OrgKeyRow } from '@shared/contracts/org-api-key';
import { IconBan, IconExternalLink, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmDelete } from '../../components/common/confirm';
import { DateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { ShortListState } from '../../components/list/ShortListState';
import { translateApiError } from '../../lib/server-messages';
import { useApiDocsUrl, useIsDemo } from './account-state';
import { useAccountCalls, useOrgKeys } from './api';
import { OrgKeyCreateModal } from './OrgKeyCreateModal';

const SCOPE_COLORS = { send: 'blue', read: 'gray', full: 'grape' } as const;

/** A key's live or test badge. */
function ModeBadge({ test }: { test: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={test ? 'orange' : 'green'} data-testid="org-key-mode">
      {t(test ? 'orgKeys.modes.test' : 'orgKeys.modes.live')}
    </Badge>
  );
}

/**
 * /me/organization-keys: the organisation's API keys for its software (name, scope, live or test, the visible prefix,
 * who made it, when, when it was last used); create one (shown once) or revoke one. Revoked keys stay listed, greyed.
 * The actions and the name come first, so a phone shows them without scrolling the table.
 */
export function OrgApiKeysPage() {
  const { t } = useTranslation();
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const docsUrl = useApiDocsUrl();
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
              {docsUrl && (
                <Anchor href={docsUrl} target="_blank" rel="noopener noreferrer" data-testid="org-keys-docs">
                  <Group gap={4} wrap="nowrap">
                    {t('orgKeys.docs')}
                    <IconExternalLink size={14} />
                  </Group>
                </Anchor>
              )}
              <Button leftSection={<IconPlus size={16} />} disabled={demo} onClick={() => setCreating(true)} data-testid="org-key-create">
                {t('orgKeys.create')}
              </Button>
            </Group>
          </Group>
          <Text size="sm" c="dimmed">
            {t('orgKeys.intro')}
          </Text>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('orgKeys.none')}>
            {() => (
              <Table.ScrollContainer minWidth={760}>
                <Table verticalSpacing="xs" data-testid="list-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={60}>{t('list.actions')}</Table.Th>
                      <Table.Th>{t('orgKeys.name')}</Table.Th>
                      <Table.Th>{t('orgKeys.scope')}</Table.Th>
                      <Table.Th>{t('orgKeys.mode')}</Table.Th>
                      <Table.Th>{t('orgKeys.createdBy')}</Table.Th>
                      <Table.Th>{t('list.columns.created_at')}</Table.Th>
                      <Table.Th>{t('orgKeys.lastUsed')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row) => (
                      <Table.Tr
                        key={row.id}
                        data-testid="list-row"
                        data-id={row.id}
                        data-revoked={row.revoked_at ? 'true' : 'false'}
                        opacity={row.revoked_at ? 0.6 : 1}
                      >
                        <Table.Td>
                          {!row.revoked_at && (
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              disabled={demo}
                              loading={busy === row.id}
                              aria-label={t('orgKeys.revoke')}
                              title={t('orgKeys.revoke')}
                              data-testid={`org-key-revoke-${row.id}`}
                              onClick={() => revoke(row)}
                            >
                              <IconBan size={16} />
                            </ActionIcon>
                          )}
                        </Table.Td>
                        <Table.Td data-column="name">
                          <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
                            {row.name}
                          </Text>
                          <Code data-column="prefix">{`${row.prefix}…`}</Code>
                          {row.revoked_at && (
                            <Text size="xs" c="red" data-testid="org-key-revoked">
                              {t('orgKeys.revokedOn')} <DateTime value={row.revoked_at} />
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td data-column="scope">
                          <Badge variant="outline" color={SCOPE_COLORS[row.scope]} title={t(`orgKeys.scopeHints.${row.scope}`)}>
                            {t(`orgKeys.scopes.${row.scope}`)}
                          </Badge>
                        </Table.Td>
                        <Table.Td data-column="mode">
                          <ModeBadge test={row.test} />
                        </Table.Td>
                        <Table.Td data-column="created_by">{row.created_by?.name ?? '—'}</Table.Td>
                        <Table.Td data-column="created_at">
                          <DateTime value={row.created_at} />
                        </Table.Td>
                        <Table.Td data-column="last_used_at">{row.last_used_at ? <DateTime value={row.last_used_at} /> : t('orgKeys.never')}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
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
