import { ActionIcon, Anchor, Group, Menu, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ALL_EVENT_TYPES, type Endpoint } from '@shared/contracts/webhook';
import { IconDots, IconEdit, IconKey, IconList, IconSend, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { pathOf } from '../../lib/route-table';
import { useRouteTable } from '../../lib/services-context';
import { EndpointStateBadge } from './webhook-state';

/** Below this width (Mantine's xs) the endpoints are cards, as the domains are. */
const PHONE = '(max-width: 36em)';

export interface EndpointActions {
  edit: (endpoint: Endpoint) => void;
  test: (endpoint: Endpoint) => void;
  rotate: (endpoint: Endpoint) => void;
  remove: (endpoint: Endpoint) => void;
}

/** The organisation's endpoints: a table on a wide screen, one card each on a phone; each with its actions. */
export function EndpointList({ rows, actions }: { rows: Endpoint[]; actions: EndpointActions }) {
  const phone = useMediaQuery(PHONE) ?? false;
  return phone ? <EndpointCards rows={rows} actions={actions} /> : <EndpointTable rows={rows} actions={actions} />;
}

function EndpointUrl({ row }: { row: Endpoint }) {
  const href = pathOf(useRouteTable(), 'webhook_deliveries', { id: row.id }) ?? '#';
  return (
    <Link href={href} asChild>
      <Anchor href={href} fw={500} style={{ wordBreak: 'break-all' }} data-column="url">
        {row.url}
      </Anchor>
    </Link>
  );
}

function TypesCount({ row }: { row: Endpoint }) {
  const { t } = useTranslation();
  return (
    <span data-column="types">
      {row.event_types.includes(ALL_EVENT_TYPES) ? t('webhooks.allEvents') : t('webhooks.typesCount', { count: row.event_types.length })}
    </span>
  );
}

function RowMenu({ row, actions }: { row: Endpoint; actions: EndpointActions }) {
  const { t } = useTranslation();
  const deliveries = pathOf(useRouteTable(), 'webhook_deliveries', { id: row.id }) ?? '#';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t('webhooks.actions')} data-testid="webhook-actions">
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconEdit size={14} />} onClick={() => actions.edit(row)} data-testid="webhook-edit">
          {t('common.edit')}
        </Menu.Item>
        <Link href={deliveries} asChild>
          <Menu.Item component="a" href={deliveries} leftSection={<IconList size={14} />} data-testid="webhook-deliveries">
            {t('webhooks.deliveries')}
          </Menu.Item>
        </Link>
        <Menu.Item leftSection={<IconSend size={14} />} onClick={() => actions.test(row)} data-testid="webhook-test">
          {t('webhooks.sendTest')}
        </Menu.Item>
        <Menu.Item leftSection={<IconKey size={14} />} onClick={() => actions.rotate(row)} data-testid="webhook-rotate">
          {t('webhooks.rotateSecret')}
        </Menu.Item>
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => actions.remove(row)} data-testid="webhook-delete">
          {t('common.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function EndpointTable({ rows, actions }: { rows: Endpoint[]; actions: EndpointActions }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" data-testid="list-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('webhooks.fields.url')}</Table.Th>
            <Table.Th>{t('webhooks.fields.description')}</Table.Th>
            <Table.Th>{t('webhooks.fields.eventTypes')}</Table.Th>
            <Table.Th>{t('webhooks.fields.state')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} data-testid="list-row" data-id={row.id}>
              <Table.Td>
                <EndpointUrl row={row} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{row.description}</Text>
              </Table.Td>
              <Table.Td>
                <TypesCount row={row} />
              </Table.Td>
              <Table.Td>
                <EndpointStateBadge endpoint={row} />
              </Table.Td>
              <Table.Td>
                <RowMenu row={row} actions={actions} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function EndpointCards({ rows, actions }: { rows: Endpoint[]; actions: EndpointActions }) {
  return (
    <Stack gap="sm" data-testid="webhook-cards">
      {rows.map((row) => (
        <Paper key={row.id} withBorder p="sm" data-testid="list-row" data-id={row.id}>
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <EndpointUrl row={row} />
              <RowMenu row={row} actions={actions} />
            </Group>
            {row.description && <Text size="sm">{row.description}</Text>}
            <Group justify="space-between" gap="xs">
              <Text size="xs" c="dimmed">
                <TypesCount row={row} />
              </Text>
              <EndpointStateBadge endpoint={row} />
            </Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
