import { z } from 'zod';
import { MESSAGES, atMostCharacters } from './messages';

// Address-type rules shared by the worker (contacts, blacklist, sending), the CSV importer and the console:
// which types exist, what a valid value of each looks like, and the one canonical spelling that is stored
// and compared (so 'Ann@Example.com' and 'ann@example.com' are the same address everywhere).

export const ADDRESS_TYPES = ['email', 'phone'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export const ADDRESS_MESSAGES = {
  invalidType: 'Choose one of: email, phone',
  invalidPhone: "Invalid phone number. It must start with '+' and contain only digits",
} as const;

/** '+' then 3 to 15 digits: full international numbers (E.164 allows 15) and short codes alike. */
export const PHONE_PATTERN = /^\+\d{3,15}$/;
export const EMAIL_MAX_LENGTH = 254;

const emailFormat = z.email();

/** True when the text names one of the address types. */
export function isAddressType(type: unknown): type is AddressType {
  return typeof type === 'string' && (ADDRESS_TYPES as readonly string[]).includes(type);
}

/** The stored, comparable spelling of an address: trimmed, e-mail lower-cased (phones are digits already). */
export function normalizeAddress(type: AddressType, value: string): string {
  const trimmed = value.trim();
  return type === 'email' ? trimmed.toLowerCase() : trimmed;
}

/** Why a value is not a valid address of its type, or null when it is; the importer and forms show this text. */
export function addressError(type: AddressType, value: string): string | null {
  const normalized = normalizeAddress(type, value);
  if (!normalized) return MESSAGES.required;
  if (type === 'phone') return PHONE_PATTERN.test(normalized) ? null : ADDRESS_MESSAGES.invalidPhone;
  if (normalized.length > EMAIL_MAX_LENGTH) return MESSAGES.invalidEmail;
  return emailFormat.safeParse(normalized).success ? null : MESSAGES.invalidEmail;
}

/** zod schema of an address type, with the shared message. */
export const addressTypeSchema = z.enum(ADDRESS_TYPES, {
  error: (issue) => (issue.input === undefined || issue.input === null ? MESSAGES.required : ADDRESS_MESSAGES.invalidType),
});

/** Raw address text before its type is known (length-capped so a huge string never reaches a regex). */
export const addressValueText = z
  .string({ error: (issue) => (issue.input == null ? MESSAGES.required : MESSAGES.mustBeText) })
  .max(1000, atMostCharacters(1000));

/** Adds the type-dependent value check to an object holding `type` and `value`, reporting on `value`. */
export function checkAddressValue(address: { type?: unknown; value?: unknown }, ctx: z.RefinementCtx, path: (string | number)[] = ['value']) {
  if (!isAddressType(address.type) || typeof address.value !== 'string') return;
  const message = addressError(address.type, address.value);
  if (message) ctx.addIssue({ code: 'custom', message, path });
}
