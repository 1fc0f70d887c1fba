import { CsvScanner, type CsvDelimiter, type CsvEncoding } from '../../shared/csv-scanner';
import { newReadStats, readFileFrom } from './file-reader';

/** How far the checks before an import look into the file. */
const PEEK_BYTES = 2 * 1024 * 1024;

export interface FilePeek {
  /** Column count of the first record (the header when the first line is skipped); null if it is unreadable. */
  columns: number | null;
  /** Whether a row to import follows (a skipped first line does not count); true when not seen within the peek. */
  hasDataRow: boolean;
}

/**
 * Reads the start of an uploaded file (a small range read) for the checks that need it: the column count the
 * mapping must fit, and whether there is any row to import. The job uses the column count too when it resumes.
 */
export async function peekFile(
  bucket: R2Bucket,
  key: string,
  size: number,
  skipFirstLine: boolean,
  format: { delimiter: CsvDelimiter; encoding: CsvEncoding },
): Promise<FilePeek> {
  const scanner = new CsvScanner(format);
  const needed = skipFirstLine ? 2 : 1;
  let seen = 0;
  let columns: number | null = null;
  const take = (records: { fields: string[]; error: string | null }[]) => {
    for (const record of records) {
      if (seen === 0) columns = record.error ? null : record.fields.length;
      seen++;
      if (seen >= needed) return true;
    }
    return false;
  };
  const limit = Math.min(size, PEEK_BYTES);
  for await (const chunk of readFileFrom(bucket, key, 0, limit, newReadStats(), limit || 1)) {
    if (take(scanner.push(chunk))) return { columns, hasDataRow: true };
  }
  if (limit < size) {
    // Not decided within the peek (a huge first row or many blank lines): the job decides.
    return { columns, hasDataRow: true };
  }
  return { columns, hasDataRow: take(scanner.finish()) };
}
