/** The eight interface languages (spec section 1), in the order the language switcher lists them. */
export const LANGUAGES = ['en', 'ru', 'de', 'pt', 'fr', 'ro', 'zh', 'es'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

/** Each language's name in itself, as the language switcher lists them (known before that language's strings are loaded). */
export const LANGUAGE_NAMES: Record<LanguageCode, string> = {
  en: 'English',
  ru: 'Русский',
  de: 'Deutsch',
  pt: 'Português',
  fr: 'Français',
  ro: 'Română',
  zh: '中文',
  es: 'Español',
};

/** True for one of the eight languages. */
export function isLanguage(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
