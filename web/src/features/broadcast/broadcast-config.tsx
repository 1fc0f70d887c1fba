import { Group, Progress, Text, type ProgressRootProps } from '@mantine/core';
import type { Broadcast } from '@shared/contracts/broadcast';
import { useTranslation } from 'react-i18next';
import { useFormatNumber } from '../../lib/numbers';
import { DateTime } from '../../components/common/DateTime';
import type { ListColumn } from '../../components/list/types';
import { useLiveBroadcast } from './live-progress';
import { BroadcastStatusBadge } from './StatusBadge';

/** The share of recipients accounted for (sent, failed or skipped), 0 to 100. */
export function progressPercent(b: Pick<Broadcast, 'total' | 'sent' | 'failed' | 'skipped'>): number {
  return b.total > 0 ? Math.min(100, Math.round(((b.sent + b.failed + b.skipped) / b.total) * 100)) : 0;
}

const share = (part: number, total: number) => (total > 0 ? Math.min(100, (part / total) * 100) : 0);

/**
 * The progress bar: what became of the recipients so far, in sections (sent, failed, skipped), so a cancelled
 * broadcast, whose rest was skipped, reads as such instead of as a full bar.
 */
export function BroadcastProgress({ b, ...props }: { b: Pick<Broadcast, 'status' | 'total' | 'sent' | 'failed' | 'skipped'> } & ProgressRootProps) {
  const { t } = useTranslation();
  const sending = b.status === 'sending';
  return (
    <Progress.Root
      {...props}
      aria-label={t('broadcasts.fields.progress')}
      aria-valuenow={progressPercent(b)}
      data-testid="broadcast-progress"
      data-percent={progressPercent(b)}
    >
      <Progress.Section value={share(b.sent, b.total)} color="blue" animated={sending} data-section="sent" data-share={Math.round(share(b.sent, b.total))} />
      <Progress.Section value={share(b.failed, b.total)} color="red" data-section="failed" data-share={Math.round(share(b.failed, b.total))} />
      <Progress.Section value={share(b.skipped, b.total)} color="gray.5" data-section="skipped" data-share={Math.round(share(b.skipped, b.total))} />
    </Progress.Root>
  );
}

/** When it started; a broadcast still waiting shows when it is scheduled to, marked as such. */
function StartedOrScheduled({ row }: { row: Broadcast }) {
  const { t } = useTranslation();
  if (row.started_at || row.status !== 'waiting' || !row.delayed_at) return <DateTime value={row.started_at} />;
  return (
    <Text size="sm" c="dimmed" span data-testid="broadcast-scheduled">
      {t('broadcasts.scheduledFor')} <DateTime value={row.delayed_at} />
    </Text>
  );
}

function LiveStatus({ row }: { row: Broadcast }) {
  return <BroadcastStatusBadge status={useLiveBroadcast(row).status} />;
}

function LiveCounts({ row }: { row: Broadcast }) {
  const { t } = useTranslation();
  const b = useLiveBroadcast(row);
  const format = useFormatNumber();
  return (
    <Group gap={6} wrap="nowrap" miw={200}>
      <BroadcastProgress b={b} w={80} size="sm" />
      <Text size="xs" data-testid="broadcast-counts">
        {t('broadcasts.counts', { sent: format(b.sent), failed: format(b.failed), skipped: format(b.skipped), total: format(b.total) })}
      </Text>
    </Group>
  );
}

/** Broadcast list columns (server-sorted where the API sorts). */
export const BROADCAST_COLUMNS: ListColumn<Broadcast>[] = [
  { key: 'name', labelKey: 'broadcasts.fields.name', sortable: true },
  { key: 'status', labelKey: 'broadcasts.fields.status', sortable: true, width: 140, render: (row) => <LiveStatus row={row} /> },
  { key: 'type', labelKey: 'broadcasts.fields.type', render: (row) => <TypeLabel type={row.type} /> },
  { key: 'progress', labelKey: 'broadcasts.fields.progress', render: (row) => <LiveCounts row={row} /> },
  { key: 'started_at', labelKey: 'broadcasts.fields.started_at', sortable: true, render: (row) => <StartedOrScheduled row={row} /> },
  { key: 'finished_at', labelKey: 'broadcasts.fields.finished_at', sortable: true, render: (row) => <DateTime value={row.finished_at} /> },
  { key: 'created_at', labelKey: 'list.columns.created_at', sortable: true, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'id', labelKey: 'list.columns.id', sortable: true, width: 80 },
];

function TypeLabel({ type }: { type: Broadcast['type'] }) {
  const { t } = useTranslation();
  return <>{t(`broadcasts.types.${type}`)}</>;
}
