import type { MESSAGES } from '@shared/messages';
import { ApiError } from './api-error';
import { MESSAGE_KEYS, MESSAGE_PATTERNS, type Translate } from './message-keys';

/** Error codes whose standard message has a translation. */
const KEY_BY_CODE: Record<string, keyof typeof MESSAGES> = {
  validation_failed: 'invalidForm',
  invalid_credentials: 'loginFailed',
  too_many_attempts: 'tooManyAttempts',
  rate_limited: 'rateLimited',
  org_not_found: 'orgNotFound',
  not_found: 'notFound',
  unauthorized: 'unauthorized',
  invalid_json: 'invalidJson',
  internal_error: 'internal',
};

/** The locale key of a fixed server text (web/src/lib/message-keys.ts), e.g. 'server.required', or null. */
export function serverMessageKey(text: string): string | null {
  return MESSAGE_KEYS.get(text.trim()) ?? null;
}

/** A known server text (fixed or by pattern) in the current language, or null when message-keys does not know it. */
function knownMessage(t: Translate, text: string): string | null {
  const key = serverMessageKey(text);
  if (key) return t(key);
  for (const pattern of MESSAGE_PATTERNS) {
    const match = pattern.re.exec(text.trim());
    if (match) return t(pattern.key, pattern.values(match, t));
  }
  return null;
}

/** A server (or in-browser) message in the current language when message-keys knows it, else as sent. */
export function translateServerMessage(t: Translate, text: string): string {
  return knownMessage(t, text) ?? text;
}

/** The message to show for a failed call: the translated shared text, the code's standard text, or a generic one. */
export function translateApiError(t: Translate, error: unknown): string {
  if (error instanceof ApiError) {
    const known = knownMessage(t, error.message);
    if (known) return known;
    const byCode = KEY_BY_CODE[error.code];
    if (byCode) return t(`server.${byCode}`);
    if (error.status === 0) return t('errors.network');
    if (error.message) return error.message;
  }
  return t('errors.generic');
}
