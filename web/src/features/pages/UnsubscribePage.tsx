import { useTranslation } from 'react-i18next';
import { FullPageMessage } from '../../components/common/FullPage';

/** /unsubscribe: the public recipients' page (outside the route guard); the real page comes with a later issue. */
export function UnsubscribePage() {
  const { t } = useTranslation();
  return <FullPageMessage testId="unsubscribe" title={t('unsubscribe.title')} text={t('unsubscribe.coming')} />;
}
