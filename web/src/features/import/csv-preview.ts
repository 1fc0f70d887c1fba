import Papa from 'papaparse';

/** Data rows the wizard shows (after the header line). */
export const PREVIEW_ROWS = 10;
/** Bytes read per step while previewing or counting: the file is never read whole into memory. */
export const PREVIEW_CHUNK_BYTES = 64 * 1024;
export const COUNT_CHUNK_BYTES = 1024 * 1024;
/** Lines looked at for the preview at most (a file that starts with many blank lines is not read on and on). */
const PREVIEW_MAX_LINES = 2_000;

/** The first lines of a CSV file, as read in the browser for the preview and the column mapping. */
export interface CsvPreview {
  /** The first line's values (a header when the first line is skipped). */
  firstLine: string[];
  /** Up to PREVIEW_ROWS non-blank lines after the first one. */
  rows: string[][];
  /** The widest line seen. */
  columns: number;
  /** True when the file goes on after the lines read. */
  truncated: boolean;
}

/** A line with nothing but separators: the importer skips it (and so does the count). */
export function isBlankRecord(record: readonly string[]): boolean {
  return record.every((value) => value === '');
}

/**
 * Data rows among parsed lines (spec 5: a skipped first line does not count): the first line is left out when
 * skipped, blank lines never count.
 */
export function countDataRows(records: readonly (readonly string[])[], skipFirstLine: boolean): number {
  return records.filter((record, index) => !(skipFirstLine && index === 0) && !isBlankRecord(record)).length;
}

/** The rows a preview has for import: the first line's values count unless it is skipped. */
export function previewDataRows(preview: CsvPreview, skipFirstLine: boolean): string[][] {
  const first = isBlankRecord(preview.firstLine) ? [] : [preview.firstLine];
  return skipFirstLine ? preview.rows : [...first, ...preview.rows];
}

function stripBom(record: string[], index: number): string[] {
  if (index === 0 && record.length && record[0].startsWith('\ufeff')) return [record[0].slice(1), ...record.slice(1)];
  return record;
}

/**
 * Reads only the start of a CSV file with papaparse (chunked reads, stopped as soon as enough lines are in),
 * so even a 100 MB file costs one small read: the first line plus PREVIEW_ROWS non-blank lines.
 */
export function readCsvPreview(file: Blob, rowsWanted = PREVIEW_ROWS): Promise<CsvPreview> {
  return new Promise((resolve, reject) => {
    let firstLine: string[] | null = null;
    const rows: string[][] = [];
    let lines = 0;
    let columns = 0;
    let truncated = false;
    Papa.parse<string[]>(file as File, {
      header: false,
      // The importer reads commas only (RFC 4180); guessing another delimiter would preview columns it never sees.
      delimiter: ',',
      skipEmptyLines: false,
      chunkSize: PREVIEW_CHUNK_BYTES,
      step: (result, parser) => {
        const record = stripBom(result.data, lines);
        lines += 1;
        columns = Math.max(columns, record.length);
        if (firstLine === null) firstLine = record;
        else if (!isBlankRecord(record)) rows.push(record);
        if (rows.length >= rowsWanted || lines >= PREVIEW_MAX_LINES) {
          truncated = true;
          parser.abort();
        }
      },
      complete: () => resolve({ firstLine: firstLine ?? [], rows, columns, truncated }),
      error: (error) => reject(error),
    });
  });
}

/**
 * Counts the data rows of a whole file by streaming it in 1 MB chunks (only one chunk in memory at a time);
 * reports the fraction read and stops early when the signal aborts (resolving with null).
 */
export function countCsvRows(file: Blob, skipFirstLine: boolean, onProgress?: (fraction: number) => void, signal?: AbortSignal): Promise<number | null> {
  return new Promise((resolve, reject) => {
    let count = 0;
    let seenFirst = false;
    Papa.parse<string[]>(file as File, {
      header: false,
      delimiter: ',',
      skipEmptyLines: false,
      chunkSize: COUNT_CHUNK_BYTES,
      chunk: (result, parser) => {
        if (signal?.aborted) {
          parser.abort();
          return;
        }
        const records = result.data;
        const skipHere = skipFirstLine && !seenFirst;
        if (records.length) seenFirst = true;
        count += countDataRows(records, skipHere);
        if (file.size) onProgress?.(Math.min(1, result.meta.cursor / file.size));
      },
      complete: () => resolve(signal?.aborted ? null : count),
      error: (error) => reject(error),
    });
  });
}
