import { useTranslation } from 'react-i18next';

/** A number as the chosen language writes it ("1,000" in English, "1.000" in German), not the browser's. */
export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** formatNumber in the console's current language. */
export function useFormatNumber(): (value: number) => string {
  const { i18n } = useTranslation();
  return (value) => formatNumber(value, i18n.language);
}
