import de from '../../../shared/locales/forms/de.json';
import en from '../../../shared/locales/forms/en.json';
import es from '../../../shared/locales/forms/es.json';
import fr from '../../../shared/locales/forms/fr.json';
import pt from '../../../shared/locales/forms/pt.json';
import ro from '../../../shared/locales/forms/ro.json';
import ru from '../../../shared/locales/forms/ru.json';
import zh from '../../../shared/locales/forms/zh.json';
import { acceptedLanguage, isLanguage, type LanguageCode } from '../../../shared/languages';

// The hosted form's, the confirmation's and the link request's strings (pages and mails) in the eight languages.

type Strings = typeof en.formPage;
export type FormKey = keyof Strings;

const STRINGS: Record<LanguageCode, Strings> = {
  en: en.formPage,
  de: de.formPage,
  es: es.formPage,
  fr: fr.formPage,
  pt: pt.formPage,
  ro: ro.formPage,
  ru: ru.formPage,
  zh: zh.formPage,
};

/** The translator of `language`: a key and its {{placeholders}}. */
export function formTranslator(language: LanguageCode) {
  const strings = STRINGS[language];
  return (key: FormKey, values: Record<string, string | number> = {}) =>
    (strings[key] ?? STRINGS.en[key]).replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? ''));
}
export type FormTranslator = ReturnType<typeof formTranslator>;

/** The visitor's language: `?lang=` (or the posted `lang`) when it is one of ours, else Accept-Language's first. */
export function visitorLanguage(asked: unknown, acceptLanguage: string | undefined): LanguageCode {
  return isLanguage(asked) ? asked : acceptedLanguage(acceptLanguage);
}
