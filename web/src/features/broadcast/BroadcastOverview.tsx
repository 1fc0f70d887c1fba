import { Alert, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Broadcast } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { useFormatNumber } from '../../lib/numbers';
import { DateTime } from '../../components/common/DateTime';
import { BroadcastActions } from './BroadcastActions';
import { BroadcastProgress } from './broadcast-config';
import { BroadcastStatusBadge } from './StatusBadge';
import { translateServerMessage } from '../../lib/server-messages';

function Figure({ labelKey, value, testId }: { labelKey: string; value: number; testId: string }) {
  const { t } = useTranslation();
  const format = useFormatNumber();
  return (
    <div>
      <Text size="xs" c="dimmed">
        {t(labelKey)}
      </Text>
      <Text fw={700} size="lg" data-testid={testId}>
        {format(value)}
      </Text>
    </div>
  );
}

/**
 * The broadcast's times, each only once it has a value (a running broadcast has no finish yet, a scheduled one no
 * start): an empty "Finished:" reads as a fault.
 */
function BroadcastTimes({ b }: { b: Broadcast }) {
  const { t } = useTranslation();
  const times: [string, string | null, string][] = [
    ['broadcasts.fields.started_at', b.started_at, 'started-at'],
    ['broadcasts.fields.finished_at', b.finished_at, 'finished-at'],
    ['broadcasts.fields.expected_finish_at', b.expected_finish_at, 'expected-finish'],
    ['broadcasts.fields.delayed_at', b.status === 'waiting' ? b.delayed_at : null, 'delayed-at'],
  ];
  const shown = times.filter(([, value]) => value);
  if (shown.length === 0) return null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="broadcast-times">
      {shown.map(([labelKey, value, testId]) => (
        <Text size="sm" key={testId} data-testid={testId}>
          {t(labelKey)}: <DateTime value={value} />
        </Text>
      ))}
    </SimpleGrid>
  );
}

/** The overview of a broadcast: status, actions, progress and totals, times; it moves with the live progress. */
export function BroadcastOverview({ broadcast: b, onChanged }: { broadcast: Broadcast; onChanged: (next: Broadcast) => void }) {
  const { t } = useTranslation();
  const held = b.held_until && Date.parse(b.held_until) > Date.now();
  return (
    <Paper withBorder p="md" data-testid="broadcast-overview">
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={2}>{b.name}</Title>
            <BroadcastStatusBadge status={b.status} />
          </Group>
          <BroadcastActions broadcast={b} onChanged={onChanged} />
        </Group>
        {b.paused_reason && (
          <Alert color="yellow" data-testid="paused-reason">
            {translateServerMessage(t, b.paused_reason)}
          </Alert>
        )}
        {held && (
          <Alert color="blue" data-testid="held-back">
            {t('broadcasts.heldBack')} <DateTime value={b.held_until} />
          </Alert>
        )}
        <BroadcastProgress b={b} size="lg" />
        <SimpleGrid cols={{ base: 2, sm: 4, md: b.type === 'email' ? 9 : 5 }}>
          <Figure labelKey="broadcasts.fields.total" value={b.total} testId="figure-total" />
          <Figure labelKey="broadcasts.fields.sent" value={b.sent} testId="figure-sent" />
          <Figure labelKey="broadcasts.fields.failed" value={b.failed} testId="figure-failed" />
          <Figure labelKey="broadcasts.fields.skipped" value={b.skipped} testId="figure-skipped" />
          {/* SMS: the carrier's reports that it did not deliver, the count of the recipients tab's Undelivered filter. */}
          {b.type === 'phone' && <Figure labelKey="broadcasts.fields.undelivered" value={b.engagement.undelivered} testId="figure-undelivered" />}
          {/* Email only (an SMS has no pixel, links, unsubscribe page or bounce address). */}
          {b.type === 'email' && (
            <>
              {/* Opened and Clicked: recipients judged a person, each once, as on the engagement tab and the dashboard. */}
              <Figure labelKey="broadcasts.fields.opens" value={b.engagement.human_opens_unique} testId="figure-opens" />
              <Figure labelKey="broadcasts.fields.clicks" value={b.engagement.human_clicks_unique} testId="figure-clicks" />
              <Figure labelKey="broadcasts.fields.unsubscribes" value={b.engagement.unsubscribes} testId="figure-unsubscribes" />
              {/* What came back to the bounce addresses (src/modules/bounce): each blacklisted its address. */}
              <Figure labelKey="broadcasts.fields.bounces" value={b.engagement.bounces} testId="figure-bounces" />
              <Figure labelKey="broadcasts.fields.complaints" value={b.engagement.complaints} testId="figure-complaints" />
            </>
          )}
        </SimpleGrid>
        <BroadcastTimes b={b} />
      </Stack>
    </Paper>
  );
}
