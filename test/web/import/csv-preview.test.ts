import { describe, expect, it } from 'vitest';
import { countCsvRows, countDataRows, PREVIEW_CHUNK_BYTES, previewDataRows, readCsvPreview } from '../../../web/src/features/import/csv-preview';

const csv = (text: string, name = 'people.csv') => new File([text], name, { type: 'text/csv' });

describe('CSV row counting (spec 5: a skipped first line does not count)', () => {
  it('leaves out the first line only when it is skipped, and never counts blank lines', () => {
    const records = [['email', 'name'], ['a@x.io', 'A'], [''], [',', ''], ['b@x.io', 'B']];
    expect(countDataRows(records, true)).toBe(3);
    expect(countDataRows(records, false)).toBe(4);
    expect(countDataRows([['email', 'name']], true)).toBe(0);
    expect(countDataRows([['email', 'name']], false)).toBe(1);
    expect(countDataRows([['email'], [''], ['']], true)).toBe(0);
  });
});

describe('readCsvPreview (papaparse on the File, in chunks)', () => {
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
  });

  it('uses commas only, like the importer (a semicolon file is one column)', async () => {
    const preview = await readCsvPreview(csv('name;email\nAnn;ann@x.io\n'));
    expect(preview.columns).toBe(1);
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
    const preview = await readCsvPreview(big, 10);
    expect(preview.rows).toHaveLength(10);
    expect(preview.truncated).toBe(true);
    expect(slices.length).toBe(1);
    expect(slices[0]).toBeLessThanOrEqual(PREVIEW_CHUNK_BYTES);
    expect(big.size).toBeGreaterThan(50 * PREVIEW_CHUNK_BYTES);
  });
});

describe('countCsvRows (streamed whole-file count)', () => {
  it('counts data rows across chunks, without the skipped first line', async () => {
    const body = `email\n${Array.from({ length: 30_000 }, (_, i) => `user${i}@example.com`).join('\n')}\n\n`;
    const fractions: number[] = [];
    expect(await countCsvRows(csv(body), true, (f) => fractions.push(f))).toBe(30_000);
    expect(await countCsvRows(csv(body), false)).toBe(30_001);
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions[fractions.length - 1]).toBeGreaterThan(0.9);
  });

  it('gives up with null when aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    expect(await countCsvRows(csv('email\na@x.io\n'), true, undefined, abort.signal)).toBeNull();
  });
});
