import { NativeSelect } from '@mantine/core';
import type { CurrentUser } from '@shared/contracts/auth';
import type { ItemBody } from '@shared/errors';
import { LANGUAGE_NAMES, type LanguageCode } from '@shared/languages';
import { useAtomValue } from 'jotai';
import { currentUserAtom } from '../../lib/session-state';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../lib/config';
import { isLanguage, switchLanguage } from '../../app/i18n';
import { useServices } from '../../lib/services-context';

/**
 * Picks one of the eight languages; each is named in its own language, and the choice is remembered: in this
 * browser, and with a signed-in user for their next session anywhere (best effort: the switch never waits for it).
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { storage, client, store } = useServices();
  const user = useAtomValue(currentUserAtom);
  const keep = (language: LanguageCode) =>
    user &&
    client
      .put<ItemBody<CurrentUser>>(`/internal-user/${user.id}/language`, { language })
      .then((body) => store.set(currentUserAtom, body.data))
      .catch(() => undefined);
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <NativeSelect
      aria-label={t('language.label')}
      data-testid="language-switcher"
      size="xs"
      value={current}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (!isLanguage(value)) return;
        void switchLanguage(i18n, storage, value);
        void keep(value);
      }}
      data={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
    />
  );
}
