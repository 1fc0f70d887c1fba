// A streaming CSV parser for imports (RFC 4180 plus what real files do), the one grammar of an import: the
// worker's job reads the file with it, and the console's preview reads the file's start with it, so both see
// the same columns and the same broken rows. It runs over the raw bytes rather than decoded text because the
// import's cursor is a byte offset: every record it yields carries the exact offset just after it, so a
// retried job can resume with an R2 range read. The structural characters (quote, the delimiter, CR, LF) are
// ASCII and never occur inside a multi-byte UTF-8 sequence (nor are they anything else in Windows-1252, a
// one-byte encoding), so finding them in bytes is exact; each record is then decoded once, strictly, and a
// record that is not valid UTF-8 is rejected with a reason instead of being imported with replacement
// characters. Windows-1252 (Excel's "CSV" on Western European Windows) maps every byte to one character.
//
// Grammar: records end at LF, CRLF or a lone CR outside quotes; values are split on the chosen delimiter
// (comma, semicolon or tab). A value starting with a quote runs to the
// next quote not doubled ("" is a literal quote) and may hold delimiters and line breaks. A quote inside an
// unquoted value is kept literally. Text after a closing quote, a quote never closed, or a record longer
// than maxRowBytes make that record malformed: it is reported with a reason and parsing resumes at the next
// line break, so one bad line costs one row. A UTF-8 byte-order mark at the very start is skipped. Blank
// records (only separators) are counted in the row numbers but not yielded.

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const EMPTY = new Uint8Array(0);

/** The delimiters an import reads: comma (RFC 4180), semicolon (Excel where the decimal mark is a comma), tab. */
export const CSV_DELIMITERS = ['comma', 'semicolon', 'tab'] as const;
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number];
/** The encodings an import reads: UTF-8 (with or without a byte-order mark) and Windows-1252 (Excel's default). */
export const CSV_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

const DELIMITER_BYTE: Record<CsvDelimiter, number> = { comma: 0x2c, semicolon: 0x3b, tab: 0x09 };

export const CSV_ERRORS = {
  textAfterQuote: 'Malformed CSV: text after a closing quote (a quote inside a quoted value must be doubled: "")',
  unclosedQuote: 'Malformed CSV: a quoted value is never closed',
  tooLong: (max: number) => `Malformed CSV: the row is longer than ${max} bytes (is a quote never closed?)`,
  encoding: 'The row is not valid UTF-8 text (choose the encoding Windows-1252, or save the file as UTF-8)',
} as const;

export interface CsvRecord {
  /** Record number in the file, the first line being 1 (a quoted value spanning lines is one record). */
  row: number;
  /** Decoded values; empty when `error` is set. */
  fields: string[];
  /** Absolute byte offset just after the record and its line break: where to resume after it. */
  end: number;
  /** Why the record cannot be read, or null. */
  error: string | null;
}

export interface CsvScannerOptions {
  /** Absolute byte offset of the first byte that will be pushed (the import cursor). */
  startOffset?: number;
  /** Number of the last record before startOffset (the import cursor row). */
  startRow?: number;
  /** Longest record accepted; longer ones are rejected so a stray quote cannot make the parser hold the file. */
  maxRowBytes?: number;
  /** What separates values; comma when not given. */
  delimiter?: CsvDelimiter;
  /** How the bytes are text; UTF-8 when not given. */
  encoding?: CsvEncoding;
}

export class CsvScanner {
  private pending: Uint8Array = EMPTY;
  /** Absolute offset of pending[0]. */
  private offset: number;
  private row: number;
  private readonly maxRowBytes: number;
  private bomChecked: boolean;
  /** Discarding an over-long line until its line break; the row number it will be reported under. */
  private skippingRow = 0;
  /** Field byte ranges of the records found by one scan (absolute within `pending`), reused. */
  private readonly fieldStart: number[] = [];
  private readonly fieldEnd: number[] = [];
  private readonly fieldEscaped: boolean[] = [];
  private readonly decoder: TextDecoder;
  private readonly delimiter: number;
  /** The largest buffer the scanner held at once (leftover plus chunk), in bytes: for the memory tests. */
  maxBufferBytes = 0;

  constructor(options: CsvScannerOptions = {}) {
    this.offset = options.startOffset ?? 0;
    this.row = options.startRow ?? 0;
    this.maxRowBytes = options.maxRowBytes ?? 1024 * 1024;
    this.bomChecked = this.offset !== 0;
    this.delimiter = DELIMITER_BYTE[options.delimiter ?? 'comma'];
    // Windows-1252 (WHATWG) maps all 256 bytes, 0x80-0x9F included (€ „ “ ” ’ ...): it never fails.
    this.decoder = new TextDecoder(options.encoding ?? 'utf-8', { fatal: true, ignoreBOM: true });
  }

  /** Feeds the next bytes; returns the records they complete. */
  push(chunk: Uint8Array): CsvRecord[] {
    if (chunk.byteLength === 0) return [];
    if (this.pending.byteLength === 0) {
      this.pending = chunk;
    } else {
      const joined = new Uint8Array(this.pending.byteLength + chunk.byteLength);
      joined.set(this.pending, 0);
      joined.set(chunk, this.pending.byteLength);
      this.pending = joined;
    }
    this.maxBufferBytes = Math.max(this.maxBufferBytes, this.pending.byteLength);
    return this.scan(false);
  }

  /** Ends the input; returns the last records (a final record needs no line break). */
  finish(): CsvRecord[] {
    return this.scan(true);
  }

  private scan(final: boolean): CsvRecord[] {
    const buf = this.pending;
    const n = buf.byteLength;
    const out: CsvRecord[] = [];
    let p = 0;
    if (!this.bomChecked) {
      if (n < 3 && !final) return out;
      this.bomChecked = true;
      if (n >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) p = 3;
    }
    const records: { start: number; end: number; first: number; count: number; row: number; error: string | null }[] = [];
    this.fieldStart.length = 0;
    this.fieldEnd.length = 0;
    this.fieldEscaped.length = 0;

    while (p < n) {
      if (this.skippingRow) {
        const end = lineEnd(buf, p, n, final);
        if (end < 0) {
          p = n; // drop what we have of the over-long line and wait for its end
          break;
        }
        records.push({ start: p, end, first: 0, count: 0, row: this.skippingRow, error: CSV_ERRORS.tooLong(this.maxRowBytes) });
        this.skippingRow = 0;
        p = end;
        continue;
      }
      const first = this.fieldStart.length;
      const result = this.parseRecord(buf, p, n, final);
      // A malformed record is cut at its first line break; that needs the line break to have arrived.
      const errorEnd = result.error ? lineEnd(buf, p, n, final) : 0;
      if (result.end < 0 || errorEnd < 0) {
        // Incomplete: wait for more bytes, unless the record is already too long to be a sane row.
        this.fieldStart.length = this.fieldEnd.length = this.fieldEscaped.length = first;
        if (n - p <= this.maxRowBytes) break;
        const row = ++this.row;
        const end = lineEnd(buf, p, Math.min(n, p + this.maxRowBytes), false);
        if (end < 0) {
          // No line break in the first maxRowBytes: skip them and look for it in the rest.
          this.skippingRow = row;
          p += this.maxRowBytes;
          continue;
        }
        records.push({ start: p, end, first, count: 0, row, error: CSV_ERRORS.tooLong(this.maxRowBytes) });
        p = end;
        continue;
      }
      const row = ++this.row;
      if (result.error) {
        // Resynchronise at the first line break of the record: only that line is lost.
        this.fieldStart.length = this.fieldEnd.length = this.fieldEscaped.length = first;
        records.push({ start: p, end: errorEnd, first, count: 0, row, error: result.error });
        p = errorEnd;
        continue;
      }
      if (result.end - p > this.maxRowBytes) {
        this.fieldStart.length = this.fieldEnd.length = this.fieldEscaped.length = first;
        records.push({ start: p, end: result.end, first, count: 0, row, error: CSV_ERRORS.tooLong(this.maxRowBytes) });
        p = result.end;
        continue;
      }
      const count = this.fieldStart.length - first;
      let blank = true;
      for (let f = first; f < first + count && blank; f++) blank = this.fieldStart[f] === this.fieldEnd[f];
      if (!blank) records.push({ start: p, end: result.end, first, count, row, error: null });
      else this.fieldStart.length = this.fieldEnd.length = this.fieldEscaped.length = first;
      p = result.end;
    }

    if (records.length) this.materialize(buf, records, out);
    this.offset += p;
    this.pending = p >= n ? EMPTY : buf.subarray(p);
    if (final && this.pending.byteLength) {
      // Only an incomplete record can remain after a final scan, and parseRecord completes those: nothing left.
      this.offset += this.pending.byteLength;
      this.pending = EMPTY;
    }
    return out;
  }

  /** Decodes the records found: the whole span at once when it is ASCII, else record by record. */
  private materialize(
    buf: Uint8Array,
    records: { start: number; end: number; first: number; count: number; row: number; error: string | null }[],
    out: CsvRecord[],
  ) {
    const spanStart = records[0].start;
    const spanEnd = records[records.length - 1].end;
    let ascii: string | null = null;
    try {
      const text = this.decoder.decode(buf.subarray(spanStart, spanEnd));
      if (text.length === spanEnd - spanStart) ascii = text;
    } catch {
      // some record is not UTF-8: decode them one by one below
    }
    for (const record of records) {
      const end = this.offset + record.end;
      if (record.error) {
        out.push({ row: record.row, fields: [], end, error: record.error });
        continue;
      }
      const fields = new Array<string>(record.count);
      let error: string | null = null;
      if (ascii !== null) {
        for (let k = 0; k < record.count; k++) {
          const f = record.first + k;
          const value = ascii.slice(this.fieldStart[f] - spanStart, this.fieldEnd[f] - spanStart);
          fields[k] = this.fieldEscaped[f] ? value.replaceAll('""', '"') : value;
        }
      } else {
        try {
          const from = this.fieldStart[record.first];
          const to = this.fieldEnd[record.first + record.count - 1];
          const text = this.decoder.decode(buf.subarray(from, to));
          if (text.length === to - from) {
            for (let k = 0; k < record.count; k++) {
              const f = record.first + k;
              const value = text.slice(this.fieldStart[f] - from, this.fieldEnd[f] - from);
              fields[k] = this.fieldEscaped[f] ? value.replaceAll('""', '"') : value;
            }
          } else {
            for (let k = 0; k < record.count; k++) {
              const f = record.first + k;
              const value = this.decoder.decode(buf.subarray(this.fieldStart[f], this.fieldEnd[f]));
              fields[k] = this.fieldEscaped[f] ? value.replaceAll('""', '"') : value;
            }
          }
        } catch {
          error = CSV_ERRORS.encoding;
        }
      }
      out.push(error ? { row: record.row, fields: [], end, error } : { row: record.row, fields, end, error: null });
    }
  }

  /**
   * Parses one record starting at p, appending its field ranges. Returns the offset after its line break,
   * or -1 when the bytes end before the record does (and this is not the final scan).
   */
  private parseRecord(buf: Uint8Array, p: number, n: number, final: boolean): { end: number; error: string | null } {
    const delimiter = this.delimiter;
    let i = p;
    for (;;) {
      if (i < n && buf[i] === QUOTE) {
        const start = i + 1;
        let j = start;
        let escaped = false;
        for (;;) {
          const q = buf.indexOf(QUOTE, j);
          if (q < 0) return final ? { end: n, error: CSV_ERRORS.unclosedQuote } : { end: -1, error: null };
          if (q + 1 >= n) {
            if (!final) return { end: -1, error: null };
            this.addField(start, q, escaped);
            return { end: n, error: null };
          }
          const next = buf[q + 1];
          if (next === QUOTE) {
            escaped = true;
            j = q + 2;
            continue;
          }
          this.addField(start, q, escaped);
          if (next === delimiter) {
            i = q + 2;
            break;
          }
          if (next === LF) return { end: q + 2, error: null };
          if (next === CR) return afterCr(buf, q + 1, n, final);
          return { end: q + 1, error: CSV_ERRORS.textAfterQuote };
        }
        continue;
      }
      let j = i;
      while (j < n) {
        const c = buf[j];
        if (c === delimiter || c === LF || c === CR) break;
        j++;
      }
      if (j >= n) {
        if (!final) return { end: -1, error: null };
        this.addField(i, n, false);
        return { end: n, error: null };
      }
      this.addField(i, j, false);
      const c = buf[j];
      if (c === delimiter) {
        i = j + 1;
        continue;
      }
      if (c === LF) return { end: j + 1, error: null };
      return afterCr(buf, j, n, final);
    }
  }

  private addField(start: number, end: number, escaped: boolean) {
    this.fieldStart.push(start);
    this.fieldEnd.push(end);
    this.fieldEscaped.push(escaped);
  }
}

/** The end of a record whose line break starts with the CR at `cr`: after CRLF, or after a lone CR. */
function afterCr(buf: Uint8Array, cr: number, n: number, final: boolean): { end: number; error: null } {
  if (cr + 1 >= n) return { end: final ? n : -1, error: null };
  return { end: buf[cr + 1] === LF ? cr + 2 : cr + 1, error: null };
}

/** Offset after the first line break at or after `from`; at the end of the bytes: n when final, else -1. */
function lineEnd(buf: Uint8Array, from: number, n: number, final: boolean): number {
  for (let k = from; k < n; k++) {
    const c = buf[k];
    if (c === LF) return k + 1;
    if (c === CR) {
      if (k + 1 >= n) return final ? n : -1;
      return buf[k + 1] === LF ? k + 2 : k + 1;
    }
  }
  return final ? n : -1;
}
