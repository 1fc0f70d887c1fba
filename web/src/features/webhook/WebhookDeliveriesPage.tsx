import { Button, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DELIVERY_STATES, type DeliveryState, type Endpoint } from '@shared/contracts/webhook';
import { IconRepeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import { notifyError, notifySuccess } from '../../components/common/notify';
import { LoadState } from '../../components/form/LoadState';
import { PageBreadcrumbs } from '../../components/layout/PageBreadcrumbs';
import { ShortListState } from '../../components/list/ShortListState';
import type { PageProps } from '../../lib/route-table';
import { translateApiError } from '../../lib/server-messages';
import { type DeliveryRow, useDeliveries, useWebhook, useWebhookCalls } from './api';
import { DeliveryStateBadge, EndpointStateBadge } from './webhook-state';

const PHONE = '(max-width: 36em)';

/** /webhook/deliveries/:id: an endpoint's delivery log, filtered by state, with replay per event and since a moment. */
export function WebhookDeliveriesPage({ params }: PageProps) {
  const id = Number(params.id);
  const { data, error, isLoading } = useWebhook(id);
  const endpoint = data?.data ?? null;
  return (
    <>
      <PageBreadcrumbs section="webhooks" current={{ labelKey: 'webhooks.deliveries', text: endpoint?.url }} />
      <LoadState error={error} loading={isLoading || !endpoint}>
        {() => <DeliveriesLog endpoint={endpoint as Endpoint} />}
      </LoadState>
    </>
  );
}

function DeliveriesLog({ endpoint }: { endpoint: Endpoint }) {
  const { t } = useTranslation();
  const calls = useWebhookCalls();
  const phone = useMediaQuery(PHONE) ?? false;
  const [state, setState] = useState<DeliveryState | null>(null);
  // The page shown: older than this event (the answer's next_before), or the newest (null).
  const [before, setBefore] = useState<number | null>(null);
  const { data, error, isLoading, mutate } = useDeliveries(endpoint.id, state, before);
  const rows = data?.data ?? [];

  const replay = (row: DeliveryRow) =>
    void calls
      .replayOne(endpoint.id, row.event_id)
      .then(() => {
        notifySuccess(t('webhooks.replayed'));
        void mutate();
      })
      .catch((failure) => notifyError(translateApiError(t, failure)));

  return (
    <Paper withBorder p="lg" data-testid="webhook-deliveries-page">
      <Stack>
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2}>{t('webhooks.deliveries')}</Title>
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {endpoint.url}
            </Text>
          </Stack>
          <EndpointStateBadge endpoint={endpoint} />
        </Group>
        <Group align="flex-end" justify="space-between">
          <Select
            label={t('webhooks.fields.state')}
            placeholder={t('webhooks.allStates')}
            clearable
            data={DELIVERY_STATES.map((s) => ({ value: s, label: t(`webhooks.deliveryStates.${s}`) }))}
            value={state}
            onChange={(value) => {
              setState(value as DeliveryState | null);
              setBefore(null);
            }}
            data-testid="deliveries-state"
            w={200}
          />
          <ReplaySince endpointId={endpoint.id} onDone={() => void mutate()} />
        </Group>
        <ShortListState error={error ? translateApiError(t, error) : null} loading={isLoading} empty={rows.length === 0} emptyText={t('webhooks.noDeliveries')}>
          {() => (phone ? <DeliveryCards rows={rows} onReplay={replay} /> : <DeliveryTable rows={rows} onReplay={replay} />)}
        </ShortListState>
        {(before !== null || data?.next_before) && (
          <Group justify="center">
            <Button variant="subtle" disabled={before === null} onClick={() => setBefore(null)} data-testid="deliveries-newest">
              {t('webhooks.newest')}
            </Button>
            <Button variant="subtle" disabled={!data?.next_before} onClick={() => setBefore(data?.next_before ?? null)} data-testid="deliveries-older">
              {t('webhooks.older')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** "Replay everything since...": a local date and time within the stream's 30 days. */
function ReplaySince({ endpointId, onDone }: { endpointId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const calls = useWebhookCalls();
  const [since, setSince] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const moment = new Date(since);
    if (!since || Number.isNaN(moment.getTime())) return;
    setBusy(true);
    try {
      const { replayed } = await calls.replaySince(endpointId, moment.toISOString());
      notifySuccess(t('webhooks.replayedSince', { count: replayed }));
      onDone();
    } catch (failure) {
      notifyError(translateApiError(t, failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group align="flex-end" gap="xs">
      <TextInput
        type="datetime-local"
        label={t('webhooks.replaySince')}
        value={since}
        onChange={(e) => setSince(e.currentTarget.value)}
        data-testid="replay-since-input"
      />
      <Button variant="light" leftSection={<IconRepeat size={14} />} loading={busy} disabled={!since} onClick={() => void submit()} data-testid="replay-since">
        {t('webhooks.replay')}
      </Button>
    </Group>
  );
}

function LastResponse({ row }: { row: DeliveryRow }) {
  const { t } = useTranslation();
  if (row.last_status === null && !row.last_error) return <Text size="sm">—</Text>;
  return (
    <Text size="sm" span data-column="last">
      {row.last_status ?? row.last_error}
      {row.last_ms !== null && ` · ${t('webhooks.ms', { ms: row.last_ms })}`}
    </Text>
  );
}

function ReplayButton({ row, onReplay }: { row: DeliveryRow; onReplay: (row: DeliveryRow) => void }) {
  const { t } = useTranslation();
  return (
    <Button size="xs" variant="subtle" onClick={() => onReplay(row)} disabled={row.state === 'sending'} data-testid="delivery-replay">
      {t('webhooks.replay')}
    </Button>
  );
}

function DeliveryTable({ rows, onReplay }: { rows: DeliveryRow[]; onReplay: (row: DeliveryRow) => void }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="xs" data-testid="list-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('webhooks.fields.eventType')}</Table.Th>
            <Table.Th>{t('webhooks.fields.eventId')}</Table.Th>
            <Table.Th>{t('webhooks.fields.time')}</Table.Th>
            <Table.Th>{t('webhooks.fields.state')}</Table.Th>
            <Table.Th>{t('webhooks.fields.attempts')}</Table.Th>
            <Table.Th>{t('webhooks.fields.lastResponse')}</Table.Th>
            <Table.Th>{t('webhooks.fields.nextRetry')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.event_id} data-testid="list-row" data-id={row.event_id}>
              <Table.Td>{row.event_type}</Table.Td>
              <Table.Td>
                {/* The id may break anywhere: unbroken, it widened the table past 1280 px in German (the e2e's check). */}
                <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {row.event_id}
                </Text>
              </Table.Td>
              <Table.Td>
                <DateTime value={row.event_timestamp} />
              </Table.Td>
              <Table.Td>
                <DeliveryStateBadge state={row.state} />
              </Table.Td>
              <Table.Td>{row.attempts}</Table.Td>
              <Table.Td>
                <LastResponse row={row} />
              </Table.Td>
              <Table.Td>{row.state === 'pending' && row.next_at ? <DateTime value={row.next_at} /> : '—'}</Table.Td>
              <Table.Td>
                <ReplayButton row={row} onReplay={onReplay} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function DeliveryCards({ rows, onReplay }: { rows: DeliveryRow[]; onReplay: (row: DeliveryRow) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm" data-testid="delivery-cards">
      {rows.map((row) => (
        <Paper key={row.event_id} withBorder p="sm" data-testid="list-row" data-id={row.event_id}>
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={500}>
                {row.event_type}
              </Text>
              <DeliveryStateBadge state={row.state} />
            </Group>
            <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
              {row.event_id}
            </Text>
            <Text size="xs" c="dimmed">
              <DateTime value={row.event_timestamp} /> · {t('webhooks.fields.attempts')}: {row.attempts}
            </Text>
            <Group justify="space-between">
              <LastResponse row={row} />
              <ReplayButton row={row} onReplay={onReplay} />
            </Group>
            {row.state === 'pending' && row.next_at && (
              <Text size="xs" c="dimmed">
                {t('webhooks.fields.nextRetry')}: <DateTime value={row.next_at} />
              </Text>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
