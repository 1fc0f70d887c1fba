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
import { config, LANGUAGES, type LanguageCode } from './config';

/** Every locale file, by language code. */
export const LOCALES: Record<LanguageCode, Record<string, unknown>> = { en, ru, de, pt, fr, ro, zh, es };

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
  });
  return instance;
}

/** Switches the language and remembers the choice for the next visit. */
export async function switchLanguage(instance: I18n, storage: KeyValueStorage, language: LanguageCode): Promise<void> {
  writeItem(storage, STORAGE_KEYS.language, language);
  await instance.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
