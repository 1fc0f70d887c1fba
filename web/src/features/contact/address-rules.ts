import { addressError, isAddressType, type AddressType } from '@shared/address';
import { MESSAGES } from '@shared/messages';

/**
 * The message an address value shows while it is typed (spec 5: the value takes the format of its type), or
 * null. An empty value is not flagged while typing (only on submit), and a missing type is reported on the type.
 */
export function liveAddressError(type: unknown, value: unknown): string | null {
  const text = typeof value === 'string' ? value : '';
  if (!text.trim() || !isAddressType(type)) return null;
  return addressError(type, text);
}

/** The message of an address on submit: a required type, a required value, then the type's format. */
export function submitAddressErrors(type: unknown, value: unknown): { type?: string; value?: string } {
  if (!isAddressType(type)) return { type: MESSAGES.required };
  const text = typeof value === 'string' ? value : '';
  const problem = addressError(type as AddressType, text);
  return problem ? { value: problem } : {};
}

/** The input placeholder key of an address type (example values in the locale files). */
export function addressPlaceholderKey(type: unknown): string {
  return type === 'phone' ? 'audience.placeholders.phone' : 'audience.placeholders.email';
}
