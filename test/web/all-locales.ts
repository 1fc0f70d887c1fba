import type { LanguageCode } from '../../web/src/lib/config';
import { mergeLocale } from '../../web/src/app/i18n';
import { LANGUAGES } from '../../web/src/lib/config';

// Every language's strings at once, as the console would have them after loading each (web/src/app/i18n.ts): for
// the tests that compare languages or render in one other than English.

const FILES = {
  ...import.meta.glob<Record<string, unknown>>('../../web/src/locales/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Record<string, unknown>>('../../web/src/locales/*/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Record<string, unknown>>('../../src/shared/locales/*/*.json', { eager: true, import: 'default' }),
};

export const LOCALES = Object.fromEntries(
  LANGUAGES.map((code) => [code, mergeLocale(Object.fromEntries(Object.entries(FILES).filter(([file]) => file.endsWith(`/${code}.json`))))]),
) as Record<LanguageCode, Record<string, unknown>>;
