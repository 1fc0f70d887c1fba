import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { currentUserAtom } from '../lib/session-state';
import { useServices } from '../lib/services-context';
import { switchLanguage } from './i18n';

/**
 * The language kept with the user (PUT /internal-user/:id/language, set by the language switcher): applied when they
 * sign in or their session is restored, so a new browser opens in it too.
 */
export function useUserLanguage(): void {
  const user = useAtomValue(currentUserAtom);
  const { i18n } = useTranslation();
  const { storage } = useServices();
  const language = user?.language ?? null;
  useEffect(() => {
    if (language && language !== i18n.language) void switchLanguage(i18n, storage, language);
  }, [language, i18n, storage]);
}
