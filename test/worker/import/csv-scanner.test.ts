import { describe, expect, it } from 'vitest';
import { CSV_ERRORS, CsvScanner, type CsvRecord } from '../../../src/shared/csv-scanner';

const encode = (text: string) => new TextEncoder().encode(text);

/** Parses bytes fed in chunks of `step` bytes (0: all at once). */
function parse(input: string | Uint8Array, step = 0, options: ConstructorParameters<typeof CsvScanner>[0] = {}): CsvRecord[] {
  const bytes = typeof input === 'string' ? encode(input) : input;
  const scanner = new CsvScanner(options);
  const out: CsvRecord[] = [];
  if (step <= 0) out.push(...scanner.push(bytes));
  else for (let i = 0; i < bytes.length; i += step) out.push(...scanner.push(bytes.subarray(i, i + step)));
  out.push(...scanner.finish());
  return out;
}

const rows = (records: CsvRecord[]) => records.map((r) => (r.error ? { row: r.row, error: r.error } : { row: r.row, fields: r.fields }));

describe('the import CSV parser', () => {
  it('skips a UTF-8 BOM and reads CRLF, LF and lone CR line ends', () => {
    expect(rows(parse('\uFEFFname,email\r\nAnn,a@x.io\nBob,b@x.io\rCy,c@x.io'))).toEqual([
      { row: 1, fields: ['name', 'email'] },
      { row: 2, fields: ['Ann', 'a@x.io'] },
      { row: 3, fields: ['Bob', 'b@x.io'] },
      { row: 4, fields: ['Cy', 'c@x.io'] },
    ]);
  });

  it('reads quoted values with commas, line breaks and doubled quotes, and empty values', () => {
    expect(rows(parse('a,"b, c","say ""hi""",\n"two\r\nlines",,""\n'))).toEqual([
      { row: 1, fields: ['a', 'b, c', 'say "hi"', ''] },
      { row: 2, fields: ['two\r\nlines', '', ''] },
    ]);
  });

  it('keeps a quote inside an unquoted value literally', () => {
    expect(rows(parse('5" disk,x\n'))).toEqual([{ row: 1, fields: ['5" disk', 'x'] }]);
  });

  it('does not yield blank lines or rows of empty values, but counts them in the row numbers', () => {
    expect(rows(parse('a\n\n,,\r\n"",\nb\n'))).toEqual([
      { row: 1, fields: ['a'] },
      { row: 5, fields: ['b'] },
    ]);
  });

  it('rejects a line with text after a closing quote and goes on with the next line', () => {
    expect(rows(parse('"ab"c,d\nok,1\n'))).toEqual([
      { row: 1, error: CSV_ERRORS.textAfterQuote },
      { row: 2, fields: ['ok', '1'] },
    ]);
  });

  it('rejects the line of a quote that is never closed and recovers the lines after it', () => {
    expect(rows(parse('name,email\n"Bob,bob@x.io\nAnn,ann@x.io\n'))).toEqual([
      { row: 1, fields: ['name', 'email'] },
      { row: 2, error: CSV_ERRORS.unclosedQuote },
      { row: 3, fields: ['Ann', 'ann@x.io'] },
    ]);
  });

  it('rejects a row longer than the limit instead of holding it, whatever the chunking', () => {
    const input = `"${'x'.repeat(300)}\nnext,1\n${'y'.repeat(300)}\nlast,2\n`;
    for (const step of [0, 1, 7, 50]) {
      expect(rows(parse(input, step, { maxRowBytes: 100 }))).toEqual([
        { row: 1, error: CSV_ERRORS.tooLong(100) },
        { row: 2, fields: ['next', '1'] },
        { row: 3, error: CSV_ERRORS.tooLong(100) },
        { row: 4, fields: ['last', '2'] },
      ]);
    }
  });

  it('rejects a row that is not valid UTF-8 and decodes multi-byte text', () => {
    const latin1 = new Uint8Array([...encode('Jos'), 0xe9, ...encode(',j@x.io\n')]);
    const utf8 = encode('José 😀,k@x.io\n');
    const records = parse(new Uint8Array([...latin1, ...utf8]));
    expect(rows(records)).toEqual([
      { row: 1, error: CSV_ERRORS.encoding },
      { row: 2, fields: ['José 😀', 'k@x.io'] },
    ]);
  });

  it('gives the same records whatever the chunk boundaries (split CRLF, split multi-byte characters)', () => {
    const input = '\uFEFFid,text\r\n1,"a ""b"" c"\r\n2,"x,\r\ny"\r\n3,Zoë 😀\r\n4,\r\n\r\n5,end';
    const whole = parse(input);
    expect(whole.map((r) => r.fields[1])).toEqual(['text', 'a "b" c', 'x,\r\ny', 'Zoë 😀', '', 'end']);
    for (const step of [1, 2, 3, 5, 8]) expect(parse(input, step)).toEqual(whole);
  });

  it('gives each record the byte offset after it, from which parsing resumes identically', () => {
    const input = 'h1,h2\r\n"é,1",2\r\nb,"multi\nline"\r\nc,3\r\n';
    const bytes = encode(input);
    const all = parse(bytes);
    expect(all.map((r) => r.end)).toEqual([7, 17, 33, 38]);
    expect(all.at(-1)!.end).toBe(bytes.length);
    for (const [i, record] of all.entries()) {
      const resumed = parse(bytes.subarray(record.end), 3, { startOffset: record.end, startRow: record.row });
      expect(resumed).toEqual(all.slice(i + 1));
    }
  });

  it('holds no more than one chunk plus an unfinished row, however long the input', () => {
    const line = 'Ann Example,ann@example.com,"note, with comma",yes\n';
    const bytes = encode(line.repeat(20_000)); // ~1 MB
    const scanner = new CsvScanner();
    let count = 0;
    for (let i = 0; i < bytes.length; i += 4096) count += scanner.push(bytes.subarray(i, i + 4096)).length;
    count += scanner.finish().length;
    expect(count).toBe(20_000);
    expect(scanner.maxBufferBytes).toBeLessThanOrEqual(4096 + line.length);
  });

  it('splits on the chosen delimiter (semicolon, tab) and keeps the others inside values', () => {
    expect(rows(parse('name;email;note\r\nAnn;"one; two";x,y\n', 3, { delimiter: 'semicolon' }))).toEqual([
      { row: 1, fields: ['name', 'email', 'note'] },
      { row: 2, fields: ['Ann', 'one; two', 'x,y'] },
    ]);
    expect(rows(parse('name\temail\nAnn, Jr.\t"a@x.io"\n', 0, { delimiter: 'tab' }))).toEqual([
      { row: 1, fields: ['name', 'email'] },
      { row: 2, fields: ['Ann, Jr.', 'a@x.io'] },
    ]);
    expect(rows(parse('a;b\n'))).toEqual([{ row: 1, fields: ['a;b'] }]);
  });

  it('reads Windows-1252 with its 0x80-0x9F characters, whatever the chunking', () => {
    // Jos\xe9;\x80 5 \x84quoted\x93 \x94it\x92s\x94
    const bytes = new Uint8Array([...encode('Jos'), 0xe9, 0x3b, 0x80, ...encode(' 5 '), 0x84, 0x93, 0x94, 0x92, 0x0a]);
    for (const step of [0, 1, 4]) {
      expect(rows(parse(bytes, step, { delimiter: 'semicolon', encoding: 'windows-1252' }))).toEqual([{ row: 1, fields: ['José', '€ 5 „“”’'] }]);
    }
    // The same bytes read as UTF-8 are a rejected row, not replacement characters.
    expect(rows(parse(bytes, 0, { delimiter: 'semicolon' }))).toEqual([{ row: 1, error: CSV_ERRORS.encoding }]);
  });

  it('skips a UTF-8 byte-order mark whichever encoding is chosen', () => {
    expect(rows(parse(new Uint8Array([0xef, 0xbb, 0xbf, ...encode('a,b\n')]), 1, { encoding: 'windows-1252' }))).toEqual([{ row: 1, fields: ['a', 'b'] }]);
  });
});
