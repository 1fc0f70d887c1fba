import { ActionIcon, Badge, Code, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { OrgKeyRow } from '@shared/contracts/org-api-key';
import { IconBan } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';

const SCOPE_COLORS = { send: 'blue', read: 'gray', full: 'grape' } as const;

/** Below this width (Mantine's xs) the keys are cards: a phone shows every detail without scrolling a table sideways. */
const PHONE = '(max-width: 36em)';

export interface OrgKeyListProps {
  rows: OrgKeyRow[];
  demo: boolean;
  busy: number | null;
  onRevoke: (row: OrgKeyRow) => void;
}

/** The organisation's keys: a table on a wide screen, one card per key on a phone; revoked keys greyed, without revoke. */
export function OrgKeyList(props: OrgKeyListProps) {
  const phone = useMediaQuery(PHONE) ?? false;
  return phone ? <KeyCards {...props} /> : <KeyTable {...props} />;
}

function RevokeButton({ row, demo, busy, onRevoke }: { row: OrgKeyRow } & Omit<OrgKeyListProps, 'rows'>) {
  const { t } = useTranslation();
  if (row.revoked_at) return null;
  return (
    <ActionIcon
      variant="subtle"
      color="red"
      disabled={demo}
      loading={busy === row.id}
      aria-label={t('orgKeys.revoke')}
      title={t('orgKeys.revoke')}
      data-testid={`org-key-revoke-${row.id}`}
      onClick={() => onRevoke(row)}
    >
      <IconBan size={16} />
    </ActionIcon>
  );
}

/** The key's name, its visible prefix, and when it was revoked. */
function KeyName({ row }: { row: OrgKeyRow }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-column="name">
      <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
        {row.name}
      </Text>
      <Code w="fit-content" data-column="prefix">{`${row.prefix}…`}</Code>
      {row.revoked_at && (
        <Text size="xs" c="red" data-testid="org-key-revoked">
          {t('orgKeys.revokedOn')} <DateTime value={row.revoked_at} />
        </Text>
      )}
    </Stack>
  );
}

/** The scope (its meaning in the tooltip) and the live or test badge. */
function KeyAccess({ row }: { row: OrgKeyRow }) {
  const { t } = useTranslation();
  return (
    <Group gap={6}>
      <Badge variant="outline" color={SCOPE_COLORS[row.scope]} title={t(`orgKeys.scopeHints.${row.scope}`)} data-column="scope">
        {t(`orgKeys.scopes.${row.scope}`)}
      </Badge>
      <Badge variant="light" color={row.test ? 'orange' : 'green'} data-column="mode">
        {t(row.test ? 'orgKeys.modes.test' : 'orgKeys.modes.live')}
      </Badge>
    </Group>
  );
}

/** When the key was made and by whom (a dash once that user is gone). */
function KeyCreated({ row }: { row: OrgKeyRow }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <Text size="sm" data-column="created_at">
        <DateTime value={row.created_at} />
      </Text>
      <Text size="xs" c="dimmed" data-column="created_by">
        {row.created_by ? t('orgKeys.createdByName', { name: row.created_by.name }) : '—'}
      </Text>
    </Stack>
  );
}

function LastUsed({ row }: { row: OrgKeyRow }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" span data-column="last_used_at">
      {row.last_used_at ? <DateTime value={row.last_used_at} /> : t('orgKeys.never')}
    </Text>
  );
}

function KeyTable(props: OrgKeyListProps) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table verticalSpacing="xs" data-testid="list-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={56}>{t('list.actions')}</Table.Th>
            <Table.Th>{t('orgKeys.name')}</Table.Th>
            <Table.Th>{t('orgKeys.access')}</Table.Th>
            <Table.Th>{t('list.columns.created_at')}</Table.Th>
            <Table.Th>{t('orgKeys.lastUsed')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.rows.map((row) => (
            <Table.Tr key={row.id} data-testid="list-row" data-id={row.id} data-revoked={row.revoked_at ? 'true' : 'false'} opacity={row.revoked_at ? 0.6 : 1}>
              <Table.Td>
                <RevokeButton row={row} {...props} />
              </Table.Td>
              <Table.Td>
                <KeyName row={row} />
              </Table.Td>
              <Table.Td>
                <KeyAccess row={row} />
              </Table.Td>
              <Table.Td>
                <KeyCreated row={row} />
              </Table.Td>
              <Table.Td>
                <LastUsed row={row} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function KeyCards(props: OrgKeyListProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="org-key-cards">
      {props.rows.map((row) => (
        <Paper
          key={row.id}
          withBorder
          p="sm"
          data-testid="list-row"
          data-id={row.id}
          data-revoked={row.revoked_at ? 'true' : 'false'}
          opacity={row.revoked_at ? 0.6 : 1}
        >
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <KeyName row={row} />
              <RevokeButton row={row} {...props} />
            </Group>
            <KeyAccess row={row} />
            <Group gap="xs" align="flex-start" justify="space-between">
              <KeyCreated row={row} />
              <Stack gap={0} align="flex-end">
                <Text size="xs" c="dimmed">
                  {t('orgKeys.lastUsed')}
                </Text>
                <LastUsed row={row} />
              </Stack>
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
