/** The eight interface languages (spec section 1), in the order the language switcher lists them. */
export const LANGUAGES = ['en', 'ru', 'de', 'pt', 'fr', 'ro', 'zh', 'es'] as const;
export type LanguageCode = (typeof LANGUAGES)[number];

/** True for one of the eight languages. */
export function isLanguage(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}
