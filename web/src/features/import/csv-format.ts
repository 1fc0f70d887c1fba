import { CSV_DELIMITERS, CsvScanner, type CsvDelimiter, type CsvEncoding } from '@shared/csv-scanner';

// Guessing how a CSV file is written from its first bytes, as Excel and other tools save it: the encoding (UTF-8
// with or without a byte-order mark, else Windows-1252, Excel's "CSV" on Western European Windows) and the
// delimiter (comma; semicolon where the decimal mark is a comma, as German and French Excel save; tab). The wizard
// shows the guess and lets the user change it; the import then reads the file exactly so (src/shared/csv-scanner).

/** How a file is read: what separates its values and how its bytes are text. */
export interface CsvFormat {
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
}

/** What an import reads when nothing else is said (the API's defaults). */
export const DEFAULT_CSV_FORMAT: CsvFormat = { delimiter: 'comma', encoding: 'utf-8' };

/** Records looked at to guess the delimiter. */
const SAMPLE_RECORDS = 20;

/** UTF-8 when the bytes start with its byte-order mark or decode as UTF-8 (a character cut at the end is allowed), else Windows-1252. */
export function detectEncoding(bytes: Uint8Array): CsvEncoding {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  try {
    // stream: true leaves an incomplete sequence at the end of the sample undecided instead of failing on it.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * The delimiter that splits the first records into the same number of columns (more than one) most often; ties go
 * to the earlier of comma, semicolon, tab, and a file of one column reads as comma-separated.
 */
export function detectDelimiter(bytes: Uint8Array, encoding: CsvEncoding, complete: boolean): CsvDelimiter {
  let best: CsvDelimiter = 'comma';
  let bestScore = 0;
  for (const delimiter of CSV_DELIMITERS) {
    const scanner = new CsvScanner({ delimiter, encoding });
    const records = [...scanner.push(bytes), ...(complete ? scanner.finish() : [])].slice(0, SAMPLE_RECORDS);
    const widths = records.filter((record) => !record.error).map((record) => record.fields.length);
    const first = widths[0] ?? 0;
    if (first < 2) continue;
    const score = widths.filter((width) => width === first).length - records.filter((record) => record.error).length;
    if (score > bestScore) {
      best = delimiter;
      bestScore = score;
    }
  }
  return best;
}

/** The encoding and delimiter of a file, guessed from its first bytes (`complete` when they are the whole file). */
export function detectCsvFormat(bytes: Uint8Array, complete: boolean): CsvFormat {
  const encoding = detectEncoding(bytes);
  return { encoding, delimiter: detectDelimiter(bytes, encoding, complete) };
}
