import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import de from '../locales/de.json';
import en from '../locales/en.json';
import es from '../locales/es.json';
import fr from '../locales/fr.json';
import pt from '../locales/pt.json';
import ro from '../locales/ro.json';
import ru from '../locales/ru.json';
import zh from '../locales/zh.json';
import { readItem, STORAGE_KEYS, writeItem, type KeyValueStorage } from '../lib/storage';
import { config, LANGUAGES, type LanguageCode } from '../lib/config';

const BASE: Record<LanguageCode, Record<string, unknown>> = { en, ru, de, pt, fr, ro, zh, es };

// Each feature area keeps its strings in locales/<area>/<lang>.json (top-level keys = its own namespace),
// so areas can be worked on side by side without editing one shared file. The strings the worker renders too (the
// public unsubscribe page, served without the console) are in src/shared/locales, read by both.
const AREA_FILES = {
  ...import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' }),
  ...import.meta.glob<Record<string, unknown>>('@shared/locales/*/*.json', { eager: true, import: 'default' }),
};

function withAreas(code: LanguageCode): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...BASE[code] };
  for (const [file, strings] of Object.entries(AREA_FILES)) {
    if (!file.endsWith(`/${code}.json`)) continue;
    for (const [key, value] of Object.entries(strings)) {
      if (key in merged) throw new Error(`Locale key "${key}" of ${file} is already defined`);
      merged[key] = value;
    }
  }
  return merged;
}

/** Every locale (base file plus the feature areas' files), by language code. */
export const LOCALES = Object.fromEntries((Object.keys(BASE) as LanguageCode[]).map((code) => [code, withAreas(code)])) as Record<
  LanguageCode,
  Record<string, unknown>
>;

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

/** Creates the i18next instance with all eight locales bundled (no network round trip for strings). */
export function createI18n(language: LanguageCode): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    resources: Object.fromEntries(Object.entries(LOCALES).map(([code, translation]) => [code, { translation }])),
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
  await instance.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
