import { CSV_ERRORS } from '@shared/csv-scanner';
import { describe, expect, it } from 'vitest';
import { createI18n, loadLocale } from '../../../web/src/app/i18n';
import { LANGUAGES } from '../../../web/src/lib/config';
import { translateServerMessage } from '../../../web/src/lib/server-messages';

// The reasons the import's parser gives for a row it cannot read (src/shared/csv-scanner.ts) reach the console as
// the English text, in the preview and in an import's rejected rows: each one has its words in every language.

const REASONS = [
  CSV_ERRORS.textAfterQuote,
  CSV_ERRORS.unclosedQuote,
  CSV_ERRORS.encoding,
  CSV_ERRORS.tooLong(1048576),
  'The row has 1 column; the first line has 3',
  'The row has 4 columns; the first line has 3',
];

describe('the parser reasons in the console', () => {
  it.each(LANGUAGES.filter((code) => code !== 'en'))('are translated in %s, with their numbers', async (code) => {
    const i18n = createI18n(code, { [code]: await loadLocale(code) });
    const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
    const texts = REASONS.map((reason) => translateServerMessage(t, reason));
    for (const [i, text] of texts.entries()) expect(text, REASONS[i]).not.toBe(REASONS[i]);
    expect(texts[3]).toContain('1048576');
    expect(texts[5]).toMatch(/4\D+3/);
  });

  it('read plainly in English', () => {
    const i18n = createI18n('en');
    const t = i18n.t.bind(i18n) as (key: string, options?: Record<string, unknown>) => string;
    expect(translateServerMessage(t, CSV_ERRORS.unclosedQuote)).toBe('A quote is not closed');
    expect(translateServerMessage(t, 'The row has 4 columns; the first line has 3')).toBe('Columns in this row: 4; in the first line: 3');
  });
});
