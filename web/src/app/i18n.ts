import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, STORAGE_KEYS, writeItem, type KeyValueStorage } from '../lib/storage';
import { config, LANGUAGES, type LanguageCode } from '../lib/config';

type Strings = Record<string, unknown>;
type Files = Record<string, Strings>;
type LazyFiles = Record<string, () => Promise<Strings>>;

// Each language's strings are its base file (locales/<lang>.json) and each feature area's file
// (locales/<area>/<lang>.json, top-level keys = the area's own namespace), so areas can be worked on side by side
// without editing one shared file. The strings the worker renders too (the public unsubscribe page, served without
// the console) are in src/shared/locales, read by both. English is in the console's first script (every other
// language falls back to it); another language is a chunk of its own, loaded when it is chosen.
const ENGLISH_FILES: Files = {
  ...import.meta.glob<Strings>('../locales/en.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Strings>('../locales/*/en.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Strings>('@shared/locales/*/en.json', { eager: true, import: 'default' }),
};
const OTHER_FILES: LazyFiles = {
  ...import.meta.glob<Strings>(['../locales/*.json', '!../locales/en.json'], { import: 'default' }),
  ...import.meta.glob<Strings>(['../locales/*/*.json', '!../locales/*/en.json'], { import: 'default' }),
  ...import.meta.glob<Strings>(['@shared/locales/*/*.json', '!@shared/locales/*/en.json'], { import: 'default' }),
};

/** One language's strings from its files (the base file and each area's: a key defined twice is a mistake). */
export function mergeLocale(files: Files): Strings {
  const merged: Strings = {};
  for (const [file, strings] of Object.entries(files)) {
    for (const [key, value] of Object.entries(strings)) {
      if (key in merged) throw new Error(`Locale key "${key}" of ${file} is already defined`);
      merged[key] = value;
    }
  }
  return merged;
}

/** English, always at hand. */
export const ENGLISH: Strings = mergeLocale(ENGLISH_FILES);

const loaded = new Map<LanguageCode, Promise<Strings>>([['en', Promise.resolve(ENGLISH)]]);

/** A language's strings, fetched once (its chunk) and kept. */
export function loadLocale(code: LanguageCode): Promise<Strings> {
  let strings = loaded.get(code);
  if (!strings) {
    const files = Object.entries(OTHER_FILES).filter(([file]) => file.endsWith(`/${code}.json`));
    strings = Promise.all(files.map(async ([file, load]) => [file, await load()] as const)).then((pairs) => mergeLocale(Object.fromEntries(pairs)));
    strings.catch(() => loaded.delete(code));
    loaded.set(code, strings);
  }
  return strings;
}

/** True for one of the eight console languages. */
export function isLanguage(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language to start in: the saved choice, else the browser's, else English. */
export function detectLanguage(storage: KeyValueStorage, browserLanguages: readonly string[]): LanguageCode {
  const saved = readItem(storage, STORAGE_KEYS.language);
  if (isLanguage(saved)) return saved;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return config.defaultLanguage;
}

/**
 * Creates the i18next instance in `language` with the strings given (English and that language's, loaded first:
 * loadLocale); the others are added when chosen (switchLanguage).
 */
export function createI18n(language: LanguageCode, locales: Partial<Record<LanguageCode, Strings>> = { en: ENGLISH }): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries({ en: ENGLISH, ...locales }).map(([code, translation]) => [code, { translation }])),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

/** Switches the language and remembers the choice for the next visit. */
export async function switchLanguage(instance: I18n, storage: KeyValueStorage, language: LanguageCode): Promise<void> {
  writeItem(storage, STORAGE_KEYS.language, language);
  if (!instance.hasResourceBundle(language, 'translation')) instance.addResourceBundle(language, 'translation', await loadLocale(language));
  await instance.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
