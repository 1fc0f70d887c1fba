import { useTranslation } from 'react-i18next';

/** A field type's translated title (number, text, select, multiselect, boolean). */
export function FieldTypeLabel({ type }: { type: string }) {
  const { t } = useTranslation();
  return <>{t(`fields.types.${type}`, { defaultValue: type })}</>;
}
