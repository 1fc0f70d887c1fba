import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '../../lib/config';
import { isLanguage, switchLanguage } from '../../app/i18n';
import { useServices } from '../../lib/services-context';

/** Picks one of the eight languages; each is named in its own language, and the choice is remembered. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const { storage } = useServices();
  const current = isLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <NativeSelect
      aria-label={t('language.label')}
      data-testid="language-switcher"
      size="xs"
      value={current}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLanguage(value)) void switchLanguage(i18n, storage, value);
      }}
      data={LANGUAGES.map((code) => ({ value: code, label: i18n.getFixedT(code)(`language.${code}`) }))}
    />
  );
}
