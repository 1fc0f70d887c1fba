import { useTranslation } from 'react-i18next';

/** Formats an ISO time in the current language (date and time, short). */
export function formatDateTime(value: string | null | undefined, language: string): string {
  if (!value) return '';
  const date = new Date(value.includes('T') || value.endsWith('Z') ? value : `${value.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(date);
}

/** A time shown in the user's language. */
export function DateTime({ value }: { value: string | null | undefined }) {
  const { i18n } = useTranslation();
  return <time dateTime={value ?? undefined}>{formatDateTime(value, i18n.language)}</time>;
}
