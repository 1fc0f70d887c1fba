import { Alert, Group, Loader, MultiSelect, Progress, Stack, Table, Text } from '@mantine/core';
import type { Field } from '@shared/contracts/field';
import type { Subscription } from '@shared/contracts/subscription';
import type { Tag } from '@shared/contracts/tag';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllRows } from '../../components/list/use-client-list';
import type { CsvFormat } from './csv-format';
import { countCsvRows } from './csv-preview';
import { formatBytes } from './format';
import { choiceLabel, columnLabel } from './import-labels';
import type { MappingDraft } from './mapping';

const SUBSCRIPTION_ORDER = { sort_by: 'priority', sort_order: 'asc' };

/** Counts the file's rows in the background (streamed, one chunk at a time); null while counting. */
function useRowCount(file: File, skipFirstLine: boolean, format: CsvFormat): { rows: number | null; fraction: number; failed: boolean } {
  const [state, setState] = useState<{ rows: number | null; fraction: number; failed: boolean }>({ rows: null, fraction: 0, failed: false });
  useEffect(() => {
    const abort = new AbortController();
    setState({ rows: null, fraction: 0, failed: false });
    countCsvRows(file, skipFirstLine, format, (fraction) => setState((current) => ({ ...current, fraction })), abort.signal).then(
      (rows) => rows !== null && setState({ rows, fraction: 1, failed: false }),
      () => !abort.signal.aborted && setState({ rows: null, fraction: 0, failed: true }),
    );
    return () => abort.abort();
  }, [file, skipFirstLine, format]);
  return state;
}

/**
 * Step 3: what will be imported (file, rows, mapping), the tags every contact gets, the subscriptions every contact
 * joins as a confirmed member, and the upload's progress once started.
 */
export function ReviewStep({
  file,
  format,
  skipFirstLine,
  drafts,
  headers,
  fields,
  tagIds,
  onTagIds,
  subscriptionIds,
  onSubscriptionIds,
  uploadFraction,
  stage,
  error,
}: {
  file: File;
  /** The delimiter and encoding the import will read the file with. */
  format: CsvFormat;
  skipFirstLine: boolean;
  drafts: MappingDraft[];
  headers: string[] | null;
  fields: Field[];
  /** The tags every imported contact gets (ids, as the select keeps them). */
  tagIds: string[];
  onTagIds: (ids: string[]) => void;
  /** The subscriptions every imported contact joins, confirmed (ids, as the select keeps them). */
  subscriptionIds: string[];
  onSubscriptionIds: (ids: string[]) => void;
  /** 0..1 while the file uploads. */
  uploadFraction: number;
  stage: 'review' | 'uploading' | 'creating';
  error: string[] | null;
}) {
  const { t } = useTranslation();
  const count = useRowCount(file, skipFirstLine, format);
  const mapped = drafts.filter((draft) => draft.choice !== 'ignore');
  const { data: tags = [] } = useAllRows<Tag>('/tag');
  const { data: subscriptions = [] } = useAllRows<Subscription>('/subscription', SUBSCRIPTION_ORDER);
  return (
    <Stack>
      <Table withTableBorder variant="vertical" data-testid="import-review">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={220}>{t('imports.review.file')}</Table.Th>
            <Table.Td data-testid="review-file">{`${file.name} (${formatBytes(file.size)})`}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('imports.review.rows')}</Table.Th>
            <Table.Td data-testid="review-rows">
              {count.rows !== null ? (
                count.rows
              ) : count.failed ? (
                t('imports.review.rowsUnknown')
              ) : (
                <Group gap="xs">
                  <Loader size="xs" />
                  <Text size="sm" c="dimmed">
                    {t('imports.review.counting', { percent: Math.round(count.fraction * 100) })}
                  </Text>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('imports.format.title')}</Table.Th>
            <Table.Td data-testid="review-format">
              {`${t(`imports.format.delimiters.${format.delimiter}`)} · ${t(`imports.format.encodings.${format.encoding}`)}`}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('imports.upload.skipFirstLine')}</Table.Th>
            <Table.Td>{t(skipFirstLine ? 'audience.yes' : 'audience.no')}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('imports.review.mapping')}</Table.Th>
            <Table.Td>
              <Stack gap={2} data-testid="review-mapping">
                {mapped.map((draft) => (
                  <Text key={draft.key} size="sm">
                    {`${columnLabel(t, draft.column, headers)} → ${choiceLabel(t, draft.choice, fields)}`}
                  </Text>
                ))}
              </Stack>
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <MultiSelect
        label={t('imports.review.tagAll')}
        description={t('imports.review.tagAllHint')}
        placeholder={tagIds.length ? undefined : t('imports.review.tagAllNone')}
        data-testid="import-tag-all"
        searchable
        clearable
        disabled={stage !== 'review'}
        data={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
        value={tagIds}
        onChange={onTagIds}
      />
      <MultiSelect
        label={t('imports.review.subscribeAll')}
        description={t('imports.review.subscribeAllHint')}
        placeholder={subscriptionIds.length ? undefined : t('imports.review.subscribeAllNone')}
        data-testid="import-subscribe-all"
        searchable
        clearable
        disabled={stage !== 'review'}
        data={subscriptions.map((subscription) => ({ value: String(subscription.id), label: subscription.name }))}
        value={subscriptionIds}
        onChange={onSubscriptionIds}
      />
      {stage !== 'review' && (
        <Stack gap={4} data-testid="import-upload-progress">
          <Text size="sm">
            {stage === 'uploading' ? t('imports.review.uploading', { percent: Math.round(uploadFraction * 100) }) : t('imports.review.creating')}
          </Text>
          <Progress value={stage === 'uploading' ? uploadFraction * 100 : 100} animated={stage === 'creating'} />
        </Stack>
      )}
      {error && error.length > 0 && (
        <Alert color="red" data-testid="import-error">
          {error.map((text) => (
            <div key={text}>{text}</div>
          ))}
        </Alert>
      )}
    </Stack>
  );
}
