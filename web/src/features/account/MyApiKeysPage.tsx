import { ActionIcon, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ApiKeyRow } from '@shared/contracts/account';
import { IconPencil, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { confirmDelete } from '../../components/common/confirm';
import { DateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { ShortListState } from '../../components/list/ShortListState';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { translateApiError } from '../../lib/server-messages';
import { currentUserAtom } from '../../lib/session-state';
import { useIsDemo } from './account-state';
import { ApiDocsLink } from './ApiDocsLink';
import { showApiKeyOnce } from './ApiKeyReveal';
import { useAccountCalls, useApiKeys } from './api';

/** How many characters of a note the list shows before cutting it. */
export const NOTE_CUT = 40;

/** A note cut to `max` characters with an ellipsis (the full text stays in the cell's title). */
export function cutNote(note: string | null, max = NOTE_CUT): string {
  if (!note) return '';
  return note.length > max ? `${note.slice(0, max - 1)}…` : note;
}

/** /me/api: the user's API key (one at most): no paging or search; edit, regenerate and delete per row. */
export function MyApiKeysPage() {
  const { t, i18n } = useTranslation();
  const table = useRouteTable();
  const user = useAtomValue(currentUserAtom);
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const { data, error, isLoading, mutate } = useApiKeys();
  const [busy, setBusy] = useState<number | null>(null);
  const rows = data?.items ?? [];
  const createHref = pathOf(table, 'internal-api-key_create');

  const regenerate = (row: ApiKeyRow) =>
    confirmDelete({
      title: t('me.api.regenerateTitle'),
      message: t('me.api.regenerateMessage'),
      confirmLabel: t('me.api.regenerate'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        setBusy(row.id);
        try {
          const fresh = await calls.regenerateApiKey(row.id);
          // The answer replaces the row (the old key is gone); the key itself is never kept in the list.
          const { key, ...listed } = fresh;
          await mutate({ items: rows.map((r) => (r.id === row.id ? listed : r)) }, { revalidate: false });
          if (key && user) showApiKeyOnce(i18n, key, user);
        } catch (failure) {
          notifyError(translateApiError(t, failure));
        } finally {
          setBusy(null);
        }
      },
    });

  const remove = (row: ApiKeyRow) =>
    confirmDelete({
      title: t('me.api.deleteTitle'),
      message: t('me.api.deleteMessage'),
      confirmLabel: t('common.delete'),
      cancelLabel: t('common.cancel'),
      onConfirm: async () => {
        setBusy(row.id);
        try {
          await calls.deleteApiKey(row.id);
          await mutate({ items: rows.filter((r) => r.id !== row.id) }, { revalidate: true });
          notifySuccess(t('me.api.deleted'));
        } catch (failure) {
          notifyError(translateApiError(t, failure));
        } finally {
          setBusy(null);
        }
      },
    });

  return (
    <AccountLayout>
      <Paper withBorder p="lg" data-testid="my-api">
        <Stack>
          <Group justify="space-between">
            <Title order={3}>{t('account.api')}</Title>
            <Group gap="xs">
              <ApiDocsLink label={t('me.api.docs')} testId="api-docs-link" />
              {!isLoading &&
                !error &&
                rows.length === 0 &&
                createHref &&
                (demo ? (
                  <Button leftSection={<IconPlus size={16} />} disabled data-testid="api-key-create">
                    {t('common.create')}
                  </Button>
                ) : (
                  <Link href={createHref} asChild>
                    <Button component="a" href={createHref} leftSection={<IconPlus size={16} />} data-testid="api-key-create">
                      {t('common.create')}
                    </Button>
                  </Link>
                ))}
            </Group>
          </Group>
          <Text size="sm" c="dimmed">
            {t('me.api.intro')}
          </Text>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('me.api.none')}>
            {() => (
              <Table.ScrollContainer minWidth={560}>
                <Table verticalSpacing="xs" data-testid="list-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={120}>{t('list.actions')}</Table.Th>
                      <Table.Th>{t('me.api.name')}</Table.Th>
                      <Table.Th>{t('me.api.note')}</Table.Th>
                      <Table.Th>{t('list.columns.id')}</Table.Th>
                      <Table.Th>{t('list.columns.created_at')}</Table.Th>
                      <Table.Th>{t('list.columns.updated_at')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row) => {
                      const editHref = pathOf(table, 'internal-api-key_update', { id: row.id });
                      return (
                        <Table.Tr key={row.id} data-testid="list-row" data-id={row.id}>
                          <Table.Td>
                            <Group gap={4} wrap="nowrap">
                              {editHref &&
                                (demo ? (
                                  <ActionIcon variant="subtle" disabled aria-label={t('common.edit')} data-testid="row-edit">
                                    <IconPencil size={16} />
                                  </ActionIcon>
                                ) : (
                                  <Link href={editHref} asChild>
                                    <ActionIcon
                                      component="a"
                                      href={editHref}
                                      variant="subtle"
                                      aria-label={t('common.edit')}
                                      title={t('common.edit')}
                                      data-testid="row-edit"
                                    >
                                      <IconPencil size={16} />
                                    </ActionIcon>
                                  </Link>
                                ))}
                              <ActionIcon
                                variant="subtle"
                                disabled={demo}
                                loading={busy === row.id}
                                aria-label={t('me.api.regenerate')}
                                title={t('me.api.regenerate')}
                                data-testid="row-regenerate"
                                onClick={() => regenerate(row)}
                              >
                                <IconRefresh size={16} />
                              </ActionIcon>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                disabled={demo}
                                aria-label={t('common.delete')}
                                title={t('common.delete')}
                                data-testid="row-delete"
                                onClick={() => remove(row)}
                              >
                                <IconTrash size={16} />
                              </ActionIcon>
                            </Group>
                          </Table.Td>
                          <Table.Td data-column="name">{row.name}</Table.Td>
                          <Table.Td data-column="note" title={row.note ?? undefined}>
                            {cutNote(row.note)}
                          </Table.Td>
                          <Table.Td data-column="id">{row.id}</Table.Td>
                          <Table.Td data-column="created_at">
                            <DateTime value={row.created_at} />
                          </Table.Td>
                          <Table.Td data-column="updated_at">
                            <DateTime value={row.updated_at} />
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </ShortListState>
        </Stack>
      </Paper>
    </AccountLayout>
  );
}
