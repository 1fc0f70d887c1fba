import de from '../../../shared/locales/unsubscribe/de.json';
import en from '../../../shared/locales/unsubscribe/en.json';
import es from '../../../shared/locales/unsubscribe/es.json';
import fr from '../../../shared/locales/unsubscribe/fr.json';
import pt from '../../../shared/locales/unsubscribe/pt.json';
import ro from '../../../shared/locales/unsubscribe/ro.json';
import ru from '../../../shared/locales/unsubscribe/ru.json';
import zh from '../../../shared/locales/unsubscribe/zh.json';
import type { LanguageCode } from '../../../shared/languages';

// The unsubscribe page's strings in the eight languages: the same files the console reads (src/shared/locales), so
// a reason is named alike on the page and in the console's engagement tab.

type PageStrings = typeof en.unsubscribe;
export type PageKey = Exclude<keyof PageStrings, 'reasons'>;

const STRINGS: Record<LanguageCode, PageStrings> = {
  en: en.unsubscribe,
  de: de.unsubscribe,
  es: es.unsubscribe,
  fr: fr.unsubscribe,
  pt: pt.unsubscribe,
  ro: ro.unsubscribe,
  ru: ru.unsubscribe,
  zh: zh.unsubscribe,
};

/** The page's translator for `language`: a key and its {{placeholders}}. */
export function pageTranslator(language: LanguageCode) {
  const strings = STRINGS[language];
  const fill = (text: string, values: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
  return {
    t: (key: PageKey, values: Record<string, string> = {}) => fill(strings[key] ?? STRINGS.en[key], values),
    reason: (reason: keyof PageStrings['reasons']) => strings.reasons[reason] ?? STRINGS.en.reasons[reason],
  };
}

export type PageTranslator = ReturnType<typeof pageTranslator>;
