import { CSV_ERRORS } from '@shared/csv-scanner';
import { describe, expect, it } from 'vitest';
import { detectCsvFormat, detectEncoding } from '../../../web/src/features/import/csv-format';
import { countCsvRows, detectFileFormat, PREVIEW_CHUNK_BYTES, previewDataRows, readCsvPreview } from '../../../web/src/features/import/csv-preview';

const csv = (text: string | Uint8Array, name = 'people.csv') => new File([text as BlobPart], name, { type: 'text/csv' });
const bytes = (text: string) => new TextEncoder().encode(text);
/** Text in Windows-1252 for the characters used here (ASCII, é ë, and 0x80-0x9F's € „ “ ” ’). */
const cp1252 = (text: string) => {
  const high: Record<string, number> = { '€': 0x80, '„': 0x84, '“': 0x93, '”': 0x94, '’': 0x92, é: 0xe9, ë: 0xeb };
  return new Uint8Array([...text].map((ch) => high[ch] ?? ch.charCodeAt(0)));
};

describe('detecting how a CSV file is written (issue 35, finding 2)', () => {
  it('finds the delimiter: comma, semicolon (German and French Excel), tab; one column reads as comma', () => {
    expect(detectCsvFormat(bytes('name,email\nAnn,a@x.io\n'), true).delimiter).toBe('comma');
    expect(detectCsvFormat(bytes('Name;E-Mail;Betrag\nAnn;a@x.io;1,50\nBen;b@x.io;2,00\n'), true).delimiter).toBe('semicolon');
    expect(detectCsvFormat(bytes('name\temail\nAnn, Jr.\ta@x.io\n'), true).delimiter).toBe('tab');
    expect(detectCsvFormat(bytes('email\na@x.io\n'), true).delimiter).toBe('comma');
    // Commas inside quoted values do not make a semicolon file comma-separated.
    expect(detectCsvFormat(bytes('"a, b";c\n"d, e";f\n'), true).delimiter).toBe('semicolon');
  });

  it('finds the encoding: UTF-8 with or without a BOM, else Windows-1252', () => {
    expect(detectEncoding(bytes('\uFEFFname\nZoë\n'))).toBe('utf-8');
    expect(detectEncoding(bytes('name\nZoë 😀\n'))).toBe('utf-8');
    // A character cut at the end of the sample is still UTF-8.
    expect(detectEncoding(bytes('name\nZoë').subarray(0, 8))).toBe('utf-8');
    expect(detectEncoding(cp1252('name;motto\nZoë;€ „hi“\n'))).toBe('windows-1252');
  });

  it('detects from the first chunk of the file only', async () => {
    expect(await detectFileFormat(csv(cp1252('Name;Motto\nZoë;’\n')))).toEqual({ delimiter: 'semicolon', encoding: 'windows-1252' });
  });
});

describe('readCsvPreview (the import parser on the start of the file)', () => {
  it('finds no rows for import in a header-only file when the first line is skipped', async () => {
    const preview = await readCsvPreview(csv('email,name\n\n'));
    expect(preview.firstLine).toEqual(['email', 'name']);
    expect(previewDataRows(preview, true)).toEqual([]);
    expect(previewDataRows(preview, false)).toEqual([['email', 'name']]);
  });

  it('reads the header, the first rows and the width, strips a BOM, and keeps quoted commas', async () => {
    const preview = await readCsvPreview(csv('\ufeffname,email,note\nAnn,ann@x.io,"likes, commas"\n\nBob,bob@x.io\n'));
    expect(preview.firstLine).toEqual(['name', 'email', 'note']);
    expect(preview.rows).toEqual([
      ['Ann', 'ann@x.io', 'likes, commas'],
      ['Bob', 'bob@x.io'],
    ]);
    expect(preview.columns).toBe(3);
    expect(preview.truncated).toBe(false);
    expect(preview.problems).toEqual([]);
  });

  it('reads with the chosen delimiter and encoding: a semicolon file in Windows-1252', async () => {
    const file = csv(cp1252('Name;Motto\r\nZoë;€ „quoted“ ”it’s\r\n'));
    expect((await readCsvPreview(file)).columns).toBe(1);
    const preview = await readCsvPreview(file, { delimiter: 'semicolon', encoding: 'windows-1252' });
    expect(preview.firstLine).toEqual(['Name', 'Motto']);
    expect(preview.rows).toEqual([['Zoë', '€ „quoted“ ”it’s']]);
  });

  it('reports the rows the import cannot read, with their row number, and goes on after them', async () => {
    const preview = await readCsvPreview(csv('name,email\n"Ann"x,a@x.io\nBob,b@x.io\n"Cy,c@x.io\n'));
    expect(preview.problems).toEqual([
      { row: 2, reason: CSV_ERRORS.textAfterQuote },
      { row: 4, reason: CSV_ERRORS.unclosedQuote },
    ]);
    expect(preview.rows).toEqual([['Bob', 'b@x.io']]);
    const latin = await readCsvPreview(csv(cp1252('name\nZoë\n')));
    expect(latin.problems).toEqual([{ row: 2, reason: CSV_ERRORS.encoding }]);
  });

  it('stops after the wanted rows and reads only the first chunk of a large file', async () => {
    const line = 'Someone With A Long Name,someone.with.a.long.name@example.com,a note that makes the line longer\n';
    const big = csv(`name,email,note\n${line.repeat(40_000)}`); // about 4 MB
    const slices: number[] = [];
    const slice = big.slice.bind(big);
    Object.defineProperty(big, 'slice', {
      value: (start?: number, end?: number) => {
        slices.push((end ?? big.size) - (start ?? 0));
        return slice(start, end);
      },
    });
    const preview = await readCsvPreview(big, undefined, 10);
    expect(preview.rows).toHaveLength(10);
    expect(preview.truncated).toBe(true);
    expect(slices.length).toBe(1);
    expect(slices[0]).toBeLessThanOrEqual(PREVIEW_CHUNK_BYTES);
    expect(big.size).toBeGreaterThan(50 * PREVIEW_CHUNK_BYTES);
  });
});

describe('countCsvRows (streamed whole-file count)', () => {
  it('counts data rows across chunks, without the skipped first line or blank lines', async () => {
    const body = `email\n${Array.from({ length: 30_000 }, (_, i) => `user${i}@example.com`).join('\n')}\n\n,\n`;
    const fractions: number[] = [];
    expect(await countCsvRows(csv(body), true, undefined, (f) => fractions.push(f))).toBe(30_000);
    expect(await countCsvRows(csv(body), false)).toBe(30_001);
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions[fractions.length - 1]).toBeGreaterThan(0.9);
  });

  it('counts with the chosen delimiter (a quoted line break is one row)', async () => {
    expect(await countCsvRows(csv('a;b\n"x\ny";1\n2;3\n'), true, { delimiter: 'semicolon', encoding: 'utf-8' })).toBe(2);
  });

  it('gives up with null when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await countCsvRows(csv('email\na@x.io\n'), true, undefined, undefined, abort.signal)).toBeNull();
  });
});
