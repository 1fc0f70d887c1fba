import { Anchor, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { DomainRow } from '@shared/contracts/domain';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { DateTime } from '../../components/common/DateTime';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { DomainStatusBadge } from './domain-status';

/** Below this width (Mantine's xs) the domains are cards, as the organisation keys are. */
const PHONE = '(max-width: 36em)';

/** The organisation's domains: a table on a wide screen, one card per domain on a phone; a broken one marked red. */
export function DomainList({ rows }: { rows: DomainRow[] }) {
  const phone = useMediaQuery(PHONE) ?? false;
  return phone ? <DomainCards rows={rows} /> : <DomainTable rows={rows} />;
}

/** The domain's name, linking to its detail page. */
function DomainName({ row }: { row: DomainRow }) {
  const href = pathOf(useRouteTable(), 'domain_view', { id: row.id }) ?? '#';
  return (
    <Link href={href} asChild>
      <Anchor href={href} fw={500} style={{ wordBreak: 'break-all' }} c={row.status === 'broken' ? 'red' : undefined} data-column="domain">
        {row.domain}
      </Anchor>
    </Link>
  );
}

function CheckedAt({ row }: { row: DomainRow }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" span data-column="checked_at">
      {row.checked_at ? <DateTime value={row.checked_at} /> : t('domains.neverChecked')}
    </Text>
  );
}

function DomainTable({ rows }: { rows: DomainRow[] }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="xs" data-testid="list-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('domains.fields.domain')}</Table.Th>
            <Table.Th>{t('domains.fields.status')}</Table.Th>
            <Table.Th>{t('domains.fields.checkedAt')}</Table.Th>
            <Table.Th>{t('domains.fields.senders')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr
              key={row.id}
              data-testid="list-row"
              data-id={row.id}
              data-broken={row.status === 'broken'}
              bg={row.status === 'broken' ? 'red.0' : undefined}
            >
              <Table.Td>
                <DomainName row={row} />
              </Table.Td>
              <Table.Td>
                <DomainStatusBadge status={row.status} />
              </Table.Td>
              <Table.Td>
                <CheckedAt row={row} />
              </Table.Td>
              <Table.Td data-column="senders">{row.senders}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DomainCards({ rows }: { rows: DomainRow[] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="domain-cards">
      {rows.map((row) => (
        <Paper
          key={row.id}
          withBorder
          p="sm"
          data-testid="list-row"
          data-id={row.id}
          data-broken={row.status === 'broken'}
          style={row.status === 'broken' ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
        >
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <DomainName row={row} />
              <DomainStatusBadge status={row.status} />
            </Group>
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                {t('domains.fields.checkedAt')}: <CheckedAt row={row} />
              </Text>
              <Text size="xs" c="dimmed">
                {t('domains.fields.senders')}: <span data-column="senders">{row.senders}</span>
              </Text>
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
