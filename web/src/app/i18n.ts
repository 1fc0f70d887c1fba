import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readItem, STORAGE_KEYS, writeItem, type KeyValueStorage } from '../lib/storage';
import { config, LANGUAGES, type LanguageCode } from '../lib/config';
import { addMessageKeys } from '../lib/message-keys';

type Strings = Record<string, unknown>;
type Files = Record<string, Strings>;
type LazyFiles = Record<string, () => Promise<Strings>>;

// Each language's strings are its base file (locales/<lang>.json) and each feature area's file
// (locales/<area>/<lang>.json, top-level keys = the area's own namespace), so areas can be worked on side by side
// without editing one shared file. The strings the worker renders too (the public unsubscribe page, served without
// the console) are in src/shared/locales, read by both. Every other language falls back to English. Of English, what
// a guest sees (the base file, the identity area, the shared pages) is in the console's first script; the signed-in
// areas' English is one chunk, loaded when someone is signed in (ConsoleStrings), so the sign-in page stays small as
// areas grow. Another language is a chunk of its own, loaded when it is chosen.
const FIRST_ENGLISH_FILES: Files = {
  ...import.meta.glob<Strings>('../locales/en.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Strings>('../locales/identity/en.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Strings>('@shared/locales/*/en.json', { eager: true, import: 'default' }),
};
const CONSOLE_ENGLISH_FILES: LazyFiles = import.meta.glob<Strings>(['../locales/*/en.json', '!../locales/identity/en.json'], { import: 'default' });
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

/** Files fetched (each a chunk, or one chunk together) and merged into one language's strings. */
function loadFiles(files: [string, () => Promise<Strings>][]): Promise<Strings> {
  return Promise.all(files.map(async ([file, load]) => [file, await load()] as const)).then((pairs) => mergeLocale(Object.fromEntries(pairs)));
}

/** The English of what a guest sees, always at hand. */
const FIRST_ENGLISH: Strings = mergeLocale(FIRST_ENGLISH_FILES);
let consoleEnglish: Strings | undefined;
let consoleEnglishLoad: Promise<Strings> | undefined;

/** The signed-in areas' English (and their server texts' locale keys), fetched once and kept. */
export function loadConsoleEnglish(): Promise<Strings> {
  if (!consoleEnglishLoad) {
    // The areas' server texts come with their English (their keys are in it): web/src/lib/area-message-keys.ts.
    const texts = import('../lib/area-message-keys').then((m) => addMessageKeys(m.AREA_MESSAGE_KEYS, m.AREA_MESSAGE_PATTERNS));
    const load = Promise.all([loadFiles(Object.entries(CONSOLE_ENGLISH_FILES)), texts]).then(([strings]) => (consoleEnglish = strings));
    load.catch(() => (consoleEnglishLoad = undefined));
    consoleEnglishLoad = load;
  }
  return consoleEnglishLoad;
}

/** English as far as it is loaded: what a guest sees, and the signed-in areas' once fetched. */
export function english(): Strings {
  return consoleEnglish ? mergeLocale({ first: FIRST_ENGLISH, console: consoleEnglish }) : FIRST_ENGLISH;
}

/** The instances that hold the signed-in areas' English, and the fetch adding it to each of the others. */
const withConsoleEnglish = new WeakSet<I18n>();
const addingConsoleEnglish = new WeakMap<I18n, Promise<void>>();

/**
 * Null when `instance` has the signed-in areas' English; else the (one, kept) promise that fetches and adds it. A
 * failed fetch resolves too, so the console still shows (its keys in place of the English); a reload tries again.
 */
export function consoleEnglishPending(instance: I18n): Promise<void> | null {
  if (withConsoleEnglish.has(instance)) return null;
  let adding = addingConsoleEnglish.get(instance);
  if (!adding) {
    adding = loadConsoleEnglish().then(
      (strings) => {
        instance.addResourceBundle('en', 'translation', strings, true, false);
        withConsoleEnglish.add(instance);
      },
      () => undefined,
    );
    addingConsoleEnglish.set(instance, adding);
  }
  return adding;
}

const loaded = new Map<LanguageCode, Promise<Strings>>([['en', Promise.resolve(FIRST_ENGLISH)]]);

/** A language's strings, fetched once (its chunk) and kept. */
export function loadLocale(code: LanguageCode): Promise<Strings> {
  let strings = loaded.get(code);
  if (!strings) {
    strings = loadFiles(Object.entries(OTHER_FILES).filter(([file]) => file.endsWith(`/${code}.json`)));
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
 * Creates the i18next instance in `language` with the strings given (that language's, loaded first: loadLocale) and
 * English as far as it is loaded (english(), unless given); the others are added when chosen (switchLanguage).
 */
export function createI18n(language: LanguageCode, locales: Partial<Record<LanguageCode, Strings>> = {}): I18n {
  const instance = i18next.createInstance();
  const en = locales.en ?? english();
  void instance.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries({ ...locales, en }).map(([code, translation]) => [code, { translation }])),
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
    showSupportNotice: false,
  });
  if (en !== FIRST_ENGLISH) withConsoleEnglish.add(instance);
  return instance;
}

/** Switches the language and remembers the choice for the next visit. */
export async function switchLanguage(instance: I18n, storage: KeyValueStorage, language: LanguageCode): Promise<void> {
  writeItem(storage, STORAGE_KEYS.language, language);
  if (!instance.hasResourceBundle(language, 'translation')) instance.addResourceBundle(language, 'translation', await loadLocale(language));
  await instance.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
