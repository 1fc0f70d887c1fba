import { TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addressPlaceholderKey, liveAddressError } from './address-rules';
import { translateServerMessage } from '../../lib/server-messages';

/**
 * An address value input checked live against its type's format (shared rules of src/shared/address.ts):
 * e-mail 'Invalid email address. Please enter a valid email', phone '+' and digits. Server messages win.
 */
export function AddressValueInput({
  type,
  value,
  onChange,
  serverError,
  label,
  required,
  testId,
  disabled,
}: {
  type: unknown;
  value: string;
  onChange: (value: string) => void;
  serverError?: string;
  label?: string;
  required?: boolean;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const live = liveAddressError(type, value);
  return (
    <TextInput
      label={label}
      aria-label={label ? undefined : t('audience.address.value')}
      withAsterisk={required}
      type={type === 'email' ? 'email' : type === 'phone' ? 'tel' : 'text'}
      inputMode={type === 'phone' ? 'tel' : type === 'email' ? 'email' : undefined}
      placeholder={t(addressPlaceholderKey(type))}
      maxLength={1000}
      disabled={disabled}
      data-testid={testId}
      value={value}
      error={serverError ?? (live ? translateServerMessage(t, live) : undefined)}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  );
}
