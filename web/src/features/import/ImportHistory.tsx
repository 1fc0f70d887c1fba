import { Alert, Badge, Button, Center, Group, Loader, Modal, Progress, ScrollArea, Table, Text, Tooltip } from '@mantine/core';
import type { Import, ImportSummary } from '@shared/contracts/import';
import type { Subscription } from '@shared/contracts/subscription';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/common/DateTime';
import { ListScreen } from '../../components/list/ListScreen';
import { useAllRows } from '../../components/list/use-client-list';
import type { ListColumn } from '../../components/list/types';
import { translateApiError, translateServerMessage } from '../../lib/server-messages';
import { useImport, useImportList } from './api';
import { liveImportsAtom, withLiveState } from './live-imports';

const STATUS_COLORS: Record<string, string> = { new: 'gray', processing: 'blue', success: 'green', fail: 'red' };

/** A listed import with what live events reported since the list was loaded. */
function useLiveRow(row: Import): ImportSummary {
  const live = useAtomValue(liveImportsAtom)[row.id];
  return withLiveState(row, live);
}

function StatusCell({ row }: { row: Import }) {
  const { t } = useTranslation();
  const current = useLiveRow(row);
  const badge = (
    <Badge
      color={STATUS_COLORS[current.status] ?? 'gray'}
      variant="light"
      data-testid="import-status"
      data-status={current.status}
      leftSection={current.status === 'processing' ? <Loader size={10} color="blue" /> : undefined}
    >
      {t(`imports.statuses.${current.status}`)}
    </Badge>
  );
  return (
    <Group gap="xs" wrap="nowrap">
      {current.error ? <Tooltip label={current.error}>{badge}</Tooltip> : badge}
      {current.status === 'processing' && current.file_size > 0 && (
        <Progress w={80} value={Math.min(100, (current.processed_bytes / current.file_size) * 100)} />
      )}
    </Group>
  );
}

function CountCell({ row, count }: { row: Import; count: 'created_count' | 'updated_count' }) {
  const current = useLiveRow(row);
  return <span data-testid={`import-${count.replace('_count', '')}`}>{current[count]}</span>;
}

function RejectionsModal({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, error, isLoading } = useImport(id);
  const rejections = data?.data.rejections ?? [];
  return (
    <Modal opened onClose={onClose} title={t('imports.rejections.title', { file: data?.data.file_name ?? '' })} size="lg">
      {error ? (
        <Alert color="red">{translateApiError(t, error)}</Alert>
      ) : isLoading ? (
        <Center p="lg">
          <Loader />
        </Center>
      ) : (
        <ScrollArea.Autosize mah={480}>
          {data && data.data.rejected_count > rejections.length && (
            <Text size="sm" c="dimmed" mb="xs">
              {t('imports.rejections.firstOnly', { shown: rejections.length, total: data.data.rejected_count })}
            </Text>
          )}
          <Table striped data-testid="import-rejections">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={90}>{t('imports.rejections.row')}</Table.Th>
                <Table.Th>{t('imports.rejections.reason')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rejections.map((rejection) => (
                <Table.Tr key={`${rejection.row}:${rejection.reason}`} data-testid="import-rejection">
                  <Table.Td>{rejection.row}</Table.Td>
                  <Table.Td>{translateServerMessage(t, rejection.reason)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Modal>
  );
}

function RejectedCell({ row }: { row: Import }) {
  const { t } = useTranslation();
  const current = useLiveRow(row);
  const [open, setOpen] = useState(false);
  if (!current.rejected_count) return <span data-testid="import-rejected">0</span>;
  return (
    <>
      <Button variant="subtle" color="red" size="compact-sm" data-testid="import-rejected" onClick={() => setOpen(true)} title={t('imports.rejections.open')}>
        {current.rejected_count}
      </Button>
      {open && <RejectionsModal id={row.id} onClose={() => setOpen(false)} />}
    </>
  );
}

/** The subscriptions the import's contacts joined as confirmed members, by name (a deleted one by its id). */
function SubscriptionsCell({ row }: { row: Import }) {
  const { data: subscriptions } = useAllRows<Subscription>('/subscription');
  if (!row.subscription_ids?.length) return <span data-testid="import-subscriptions">—</span>;
  const names = new Map((subscriptions ?? []).map((subscription) => [subscription.id, subscription.name]));
  return <span data-testid="import-subscriptions">{row.subscription_ids.map((id) => names.get(id) ?? `#${id}`).join(', ')}</span>;
}

/**
 * Past imports' columns: when, file, status (with progress), created, updated, rejected (reasons in a dialog) and the
 * subscriptions every contact joined.
 */
const IMPORT_COLUMNS: ListColumn<Import>[] = [
  { key: 'created_at', labelKey: 'imports.history.started', sortable: true, width: 150, render: (row) => <DateTime value={row.created_at} /> },
  { key: 'file_name', labelKey: 'imports.history.file', sortable: true },
  { key: 'status', labelKey: 'imports.history.status', sortable: true, render: (row) => <StatusCell row={row} /> },
  { key: 'created_count', labelKey: 'imports.history.created', render: (row) => <CountCell row={row} count="created_count" /> },
  { key: 'updated_count', labelKey: 'imports.history.updated', render: (row) => <CountCell row={row} count="updated_count" /> },
  { key: 'rejected_count', labelKey: 'imports.history.rejected', render: (row) => <RejectedCell row={row} /> },
  { key: 'subscription_ids', labelKey: 'imports.history.subscriptions', render: (row) => <SubscriptionsCell row={row} /> },
];

/** The list of past imports (read-only, server-paged, newest first), kept current by live events. */
export function ImportHistory() {
  return (
    <ListScreen<Import>
      listKey="import"
      titleKey="imports.history.title"
      columns={IMPORT_COLUMNS}
      defaultSort={{ key: 'created_at', order: 'desc' }}
      useList={useImportList}
    />
  );
}
