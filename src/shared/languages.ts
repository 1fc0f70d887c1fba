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

/**
 * The first of the eight languages an Accept-Language header asks for (in its order, quality weights honoured), else
 * English: the pages the worker renders itself (the unsubscribe page, the sign-in shell) speak the browser's language.
 */
export function acceptedLanguage(acceptLanguage: string | undefined): LanguageCode {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { base: tag.toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.base && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((r) => r.base).find(isLanguage) ?? 'en';
}
