import { Alert, Button, Checkbox, NativeSelect, Paper, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IMPORT_MAX_BYTES } from '@shared/contracts/import';
import { CSV_DELIMITERS, CSV_ENCODINGS, type CsvDelimiter, type CsvEncoding } from '@shared/csv-scanner';
import { IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { CsvFormat } from './csv-format';
import { previewDataRows, type CsvPreview } from './csv-preview';
import { formatBytes } from './format';
import { translateServerMessage } from '../../lib/server-messages';

/** Rows the preview lists as unreadable at most (the rest are counted in the import's result). */
const PROBLEMS_SHOWN = 5;

/** True when a file is small enough to import (spec 9: 100 MB at most). */
export function fileFits(file: Pick<File, 'size'>): boolean {
  return file.size <= IMPORT_MAX_BYTES;
}

/**
 * Step 1: choose or drop a CSV file (at most 100 MB), see how it is read (delimiter and encoding, detected and
 * changeable), its first lines and the lines among them the import cannot read, and choose whether the first
 * line is a header to skip (checked by default).
 */
export function UploadStep({
  file,
  preview,
  reading,
  error,
  skipFirstLine,
  onFile,
  onSkipFirstLine,
  format,
  onFormat,
}: {
  file: File | null;
  preview: CsvPreview | null;
  reading: boolean;
  error: string | null;
  skipFirstLine: boolean;
  onFile: (file: File) => void;
  onSkipFirstLine: (skip: boolean) => void;
  /** How the file is read: detected when it is chosen, then the user's choice; null before a file is read. */
  format: CsvFormat | null;
  onFormat: (format: CsvFormat) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files?.[0];
    if (dropped) onFile(dropped);
  };
  const rows = preview ? previewDataRows(preview, skipFirstLine) : [];
  const columns = preview?.columns ?? 0;

  return (
    <Stack>
      <Paper
        withBorder
        p="xl"
        data-testid="import-dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        style={{ borderStyle: 'dashed', borderWidth: 2, background: over ? 'var(--mantine-color-indigo-0)' : undefined, textAlign: 'center' }}
      >
        <Stack align="center" gap="xs">
          <IconFileTypeCsv size={40} stroke={1.5} />
          <Text fw={600}>{t('imports.upload.drop')}</Text>
          <Text size="sm" c="dimmed">
            {t('imports.upload.limit', { size: formatBytes(IMPORT_MAX_BYTES) })}
          </Text>
          <input
            ref={input}
            type="file"
            accept=".csv,text/csv,text/plain"
            data-testid="import-file"
            aria-label={t('imports.upload.choose')}
            style={{ display: 'none' }}
            onChange={(event) => {
              const chosen = event.currentTarget.files?.[0];
              if (chosen) onFile(chosen);
              event.currentTarget.value = '';
            }}
          />
          <Button leftSection={<IconUpload size={16} />} variant="light" onClick={() => input.current?.click()} loading={reading} data-testid="import-choose">
            {t('imports.upload.choose')}
          </Button>
          {file && (
            <Text size="sm" data-testid="import-file-name">
              {t('imports.upload.chosen', { name: file.name, size: formatBytes(file.size) })}
            </Text>
          )}
        </Stack>
      </Paper>
      {file && format && (
        <Stack gap={4}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NativeSelect
              label={t('imports.format.delimiter')}
              value={format.delimiter}
              data={CSV_DELIMITERS.map((value) => ({ value, label: t(`imports.format.delimiters.${value}`) }))}
              onChange={(event) => onFormat({ ...format, delimiter: event.currentTarget.value as CsvDelimiter })}
              disabled={reading}
              data-testid="import-delimiter"
            />
            <NativeSelect
              label={t('imports.format.encoding')}
              value={format.encoding}
              data={CSV_ENCODINGS.map((value) => ({ value, label: t(`imports.format.encodings.${value}`) }))}
              onChange={(event) => onFormat({ ...format, encoding: event.currentTarget.value as CsvEncoding })}
              disabled={reading}
              data-testid="import-encoding"
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('imports.format.hint')}
          </Text>
        </Stack>
      )}
      <Checkbox
        label={t('imports.upload.skipFirstLine')}
        description={t('imports.upload.skipFirstLineHint')}
        checked={skipFirstLine}
        onChange={(event) => onSkipFirstLine(event.currentTarget.checked)}
        data-testid="import-skip-first-line"
      />
      {error && (
        <Alert color="red" data-testid="import-upload-error">
          {error}
        </Alert>
      )}
      {preview && preview.problems.length > 0 && (
        <Alert color="yellow" title={t('imports.problems.title')} data-testid="import-parse-errors">
          <Stack gap={2}>
            {preview.problems.slice(0, PROBLEMS_SHOWN).map((problem) => (
              <Text size="sm" key={problem.row} data-testid="import-parse-error">
                {t('imports.problems.row', { row: problem.row, reason: translateServerMessage(t, problem.reason) })}
              </Text>
            ))}
            {preview.problems.length > PROBLEMS_SHOWN && (
              <Text size="sm" c="dimmed">
                {t('imports.problems.more', { number: preview.problems.length - PROBLEMS_SHOWN })}
              </Text>
            )}
          </Stack>
        </Alert>
      )}
      {preview && rows.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t(preview.truncated ? 'imports.upload.previewFirst' : 'imports.upload.previewAll', { count: rows.length })}
          </Text>
          <ScrollArea>
            <Table withTableBorder striped data-testid="import-preview">
              {skipFirstLine && (
                <Table.Thead>
                  <Table.Tr>
                    {Array.from({ length: columns }, (_, column) => (
                      <Table.Th key={column}>{preview.firstLine[column] ?? ''}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
              )}
              <Table.Tbody>
                {rows.map((row, index) => (
                  <Table.Tr key={index} data-testid="import-preview-row">
                    {Array.from({ length: columns }, (_, column) => (
                      <Table.Td key={column}>{row[column] ?? ''}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Stack>
      )}
    </Stack>
  );
}
