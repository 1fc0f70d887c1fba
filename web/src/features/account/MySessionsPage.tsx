import { ActionIcon, Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { SessionRow } from '@shared/contracts/account';
import { IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../lib/services-context';
import { DateTime } from '../../components/common/DateTime';
import { confirmDelete } from '../../components/common/confirm';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { AccountLayout } from '../../components/layout/AccountLayout';
import { ShortListState } from '../../components/list/ShortListState';
import { translateApiError } from '../../lib/server-messages';
import { describeUserAgent } from '../../lib/user-agent';
import { useIsDemo } from './account-state';
import { useAccountCalls, useSessions } from './api';

/**
 * What the device column shows: the browser and system read from the user agent ("Chrome 131 on Windows"), else
 * a device name a client gave (not the console's own install id), else the raw user agent, else a dash.
 */
export function deviceOf(row: Pick<SessionRow, 'device' | 'user_agent'>): string {
  const named = row.device?.trim() && !row.device.startsWith('relay-console:') ? row.device.trim() : null;
  return describeUserAgent(row.user_agent) ?? named ?? (row.user_agent?.trim() || '—');
}

/** A long id cut to its first 8 characters (with an ellipsis) so the table keeps its row actions in view. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** /me/session: the user's live sessions; select and revoke them (revoking the current one signs out). */
export function MySessionsPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  const calls = useAccountCalls();
  const demo = useIsDemo();
  const { data, error, isLoading, mutate } = useSessions();
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [busy, setBusy] = useState(false);
  const rows = data?.items ?? [];
  const chosen = rows.filter((row) => selected.has(row.id));
  const allSelected = rows.length > 0 && chosen.length === rows.length;

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleAll = () => setSelected(allSelected ? new Set() : new Set(rows.map((row) => row.id)));

  const revoke = async (targets: SessionRow[], action: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await action();
      if (targets.some((row) => row.current)) {
        // This browser's own session is gone: sign out here too.
        await session.logout({ remote: false });
        return;
      }
      setSelected(new Set());
      notifySuccess(t('me.sessions.revoked', { count: targets.length }));
      await mutate();
    } catch (failure) {
      notifyError(translateApiError(t, failure));
    } finally {
      setBusy(false);
    }
  };

  const revokeOne = (row: SessionRow) =>
    confirmDelete({
      title: t('me.sessions.revokeOneTitle'),
      message: t(row.current ? 'me.sessions.revokeCurrentMessage' : 'me.sessions.revokeOneMessage', { device: deviceOf(row) }),
      confirmLabel: t('me.sessions.revoke'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => void revoke([row], () => calls.revokeSession(row.id)),
    });

  const revokeSelected = () => {
    if (!chosen.length) return;
    const ids = chosen.map((row) => row.id);
    confirmDelete({
      title: t('me.sessions.revokeSelectedTitle'),
      message: t(chosen.some((row) => row.current) ? 'me.sessions.revokeSelectedCurrentMessage' : 'me.sessions.revokeSelectedMessage', { count: ids.length }),
      confirmLabel: t('me.sessions.revoke'),
      cancelLabel: t('common.cancel'),
      onConfirm: () => void revoke(chosen, () => calls.revokeSessions(ids)),
    });
  };

  return (
    <AccountLayout>
      <Paper withBorder p="lg" data-testid="my-sessions" data-busy={busy || isLoading ? 'true' : 'false'}>
        <Stack>
          <Group justify="space-between">
            <Title order={3}>{t('account.session')}</Title>
            <Button
              variant="light"
              color="red"
              leftSection={<IconLogout size={16} />}
              disabled={demo || chosen.length === 0}
              loading={busy}
              onClick={revokeSelected}
              data-testid="sessions-revoke-selected"
            >
              {t('me.sessions.revokeSelected', { count: chosen.length })}
            </Button>
          </Group>
          <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('list.empty')}>
            {() => (
              <Table.ScrollContainer minWidth={720}>
                <Table verticalSpacing="xs" highlightOnHover data-testid="list-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th w={36}>
                        <Checkbox
                          aria-label={t('list.selectAll')}
                          data-testid="list-select-all"
                          checked={allSelected}
                          indeterminate={!allSelected && chosen.length > 0}
                          disabled={demo}
                          onChange={toggleAll}
                        />
                      </Table.Th>
                      <Table.Th w={70}>{t('list.actions')}</Table.Th>
                      <Table.Th>{t('me.sessions.device')}</Table.Th>
                      <Table.Th>{t('me.sessions.expiresAt')}</Table.Th>
                      <Table.Th>{t('me.sessions.ip')}</Table.Th>
                      <Table.Th>{t('me.sessions.refreshesAt')}</Table.Th>
                      <Table.Th>{t('list.columns.updated_at')}</Table.Th>
                      <Table.Th>{t('list.columns.id')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.map((row) => (
                      <Table.Tr key={row.id} data-testid="list-row" data-id={row.id} data-current={row.current ? 'true' : 'false'}>
                        <Table.Td>
                          <Checkbox
                            aria-label={t('list.selectRow')}
                            data-testid="row-select"
                            checked={selected.has(row.id)}
                            disabled={demo}
                            onChange={() => toggle(row.id)}
                          />
                        </Table.Td>
                        <Table.Td>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            disabled={demo || busy}
                            aria-label={t('me.sessions.revoke')}
                            title={t('me.sessions.revoke')}
                            data-testid="row-revoke"
                            onClick={() => revokeOne(row)}
                          >
                            <IconLogout size={16} />
                          </ActionIcon>
                        </Table.Td>
                        <Table.Td data-column="device" miw={130}>
                          <Group gap="xs">
                            <Text size="sm" lineClamp={2} maw={220} style={{ overflowWrap: 'anywhere' }} title={row.user_agent ?? undefined}>
                              {deviceOf(row)}
                            </Text>
                            {row.current && (
                              <Badge color="green" variant="light" style={{ flexShrink: 0 }} data-testid="session-current">
                                {t('me.sessions.current')}
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td data-column="expires_at">
                          <DateTime value={row.expires_at} />
                        </Table.Td>
                        <Table.Td data-column="ip">{row.ip ?? '—'}</Table.Td>
                        {/* Never refreshed yet: its tokens are still the ones of the sign-in. */}
                        <Table.Td data-column="refreshes_at">
                          <DateTime value={row.refreshes_at ?? row.created_at} />
                        </Table.Td>
                        <Table.Td data-column="updated_at">
                          <DateTime value={row.updated_at} />
                        </Table.Td>
                        <Table.Td data-column="id">
                          {/* Session ids are UUIDs: the start is enough to tell them apart; the whole id is the title. */}
                          <Text size="xs" ff="monospace" title={row.id} style={{ whiteSpace: 'nowrap' }}>
                            {shortId(row.id)}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
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
