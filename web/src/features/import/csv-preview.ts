import { CsvScanner, type CsvRecord } from '@shared/csv-scanner';
import type { ImportRejection } from '@shared/contracts/import';
import { DEFAULT_CSV_FORMAT, detectCsvFormat, type CsvFormat } from './csv-format';

// The wizard's look at a CSV file, read with the import's own parser (src/shared/csv-scanner.ts) and the chosen
// delimiter and encoding, so the preview shows the columns and the broken rows the import will find.

/** Data rows the wizard shows (after the header line). */
export const PREVIEW_ROWS = 10;
/** Bytes read per step while previewing or counting: the file is never read whole into memory. */
export const PREVIEW_CHUNK_BYTES = 64 * 1024;
export const COUNT_CHUNK_BYTES = 1024 * 1024;
/** Bytes the preview reads at most: past the parser's longest row, so a quote never closed is decided too. */
const PREVIEW_MAX_BYTES = 1024 * 1024 + 2 * PREVIEW_CHUNK_BYTES;
/** Lines looked at for the preview at most (a file that starts with many blank or broken lines is not read on and on). */
const PREVIEW_MAX_LINES = 2_000;

/** The first lines of a CSV file, as read in the browser for the preview and the column mapping. */
export interface CsvPreview {
  /** The first line's values (a header when the first line is skipped). */
  firstLine: string[];
  /** Up to PREVIEW_ROWS readable, non-blank lines after the first one. */
  rows: string[][];
  /** The widest line seen. */
  columns: number;
  /** True when the file goes on after the lines read. */
  truncated: boolean;
  /** Lines the import will reject as unreadable (a quote never closed, text after a quote, not the encoding), with their row. */
  problems: ImportRejection[];
  /** The delimiter and encoding it was read with. */
  format: CsvFormat;
}

/** A line with nothing but separators: the importer skips it (and so does the count). */
export function isBlankRecord(record: readonly string[]): boolean {
  return record.every((value) => value === '');
}

/** The rows a preview has for import: the first line's values count unless it is skipped. */
export function previewDataRows(preview: CsvPreview, skipFirstLine: boolean): string[][] {
  const first = isBlankRecord(preview.firstLine) ? [] : [preview.firstLine];
  return skipFirstLine ? preview.rows : [...first, ...preview.rows];
}

/** The bytes of a file from `start`, at most `length` of them. */
async function bytesOf(file: Blob, start: number, length: number): Promise<Uint8Array> {
  return new Uint8Array(await file.slice(start, start + length).arrayBuffer());
}

/** The delimiter and encoding of a file, guessed from its first chunk (one small read). */
export async function detectFileFormat(file: Blob): Promise<CsvFormat> {
  const bytes = await bytesOf(file, 0, PREVIEW_CHUNK_BYTES);
  return detectCsvFormat(bytes, bytes.byteLength >= file.size);
}

/**
 * Reads only the start of a CSV file, chunk by chunk, until the first line plus `rowsWanted` readable lines are
 * in, with the import's parser and the given format: even a 100 MB file usually costs one small read.
 */
export async function readCsvPreview(file: Blob, format: CsvFormat = DEFAULT_CSV_FORMAT, rowsWanted = PREVIEW_ROWS): Promise<CsvPreview> {
  const scanner = new CsvScanner(format);
  let firstLine: string[] | null = null;
  const rows: string[][] = [];
  const problems: ImportRejection[] = [];
  let columns = 0;
  let lines = 0;
  // As the import does, the first line is the first record the parser yields (blank lines are not records).
  const take = (records: CsvRecord[]): boolean => {
    for (const record of records) {
      lines = record.row;
      if (record.error) problems.push({ row: record.row, reason: record.error });
      else columns = Math.max(columns, record.fields.length);
      if (firstLine === null) firstLine = record.fields;
      else if (!record.error) rows.push(record.fields);
      if (rows.length >= rowsWanted || lines >= PREVIEW_MAX_LINES) return true;
    }
    return false;
  };
  let at = 0;
  while (at < file.size && at < PREVIEW_MAX_BYTES) {
    const chunk = await bytesOf(file, at, PREVIEW_CHUNK_BYTES);
    at += chunk.byteLength;
    if (chunk.byteLength === 0) break;
    if (take(scanner.push(chunk))) return { firstLine: firstLine ?? [], rows, columns, truncated: true, problems, format };
  }
  const complete = at >= file.size;
  if (complete) take(scanner.finish());
  return { firstLine: firstLine ?? [], rows, columns, truncated: !complete, problems, format };
}

/**
 * Counts the rows the import will read (rejected ones too, blank ones not) by streaming the file in 1 MB chunks
 * through the import's parser (only one chunk in memory at a time); reports the fraction read and stops early
 * when the signal aborts (resolving with null).
 */
export async function countCsvRows(
  file: Blob,
  skipFirstLine: boolean,
  format: CsvFormat = DEFAULT_CSV_FORMAT,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<number | null> {
  const scanner = new CsvScanner(format);
  let count = 0;
  let first = true;
  const add = (records: CsvRecord[]) => {
    if (!records.length) return;
    count += first && skipFirstLine ? records.length - 1 : records.length;
    first = false;
  };
  for (let at = 0; at < file.size; at += COUNT_CHUNK_BYTES) {
    if (signal?.aborted) return null;
    add(scanner.push(await bytesOf(file, at, COUNT_CHUNK_BYTES)));
    onProgress?.(Math.min(1, (at + COUNT_CHUNK_BYTES) / file.size));
  }
  if (signal?.aborted) return null;
  add(scanner.finish());
  return count;
}
