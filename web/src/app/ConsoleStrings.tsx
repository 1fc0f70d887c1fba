import { use, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleEnglishPending } from './i18n';

/** Shows its children once the signed-in areas' English is in the i18n instance (suspending while it is fetched). */
export function ConsoleStrings({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const pending = consoleEnglishPending(i18n);
  if (pending) use(pending);
  return children;
}
