import { MESSAGES } from '@shared/messages';
import { ApiError } from './api-error';

type Translate = (key: string) => string;

const KEY_BY_TEXT = new Map<string, string>(Object.entries(MESSAGES).map(([key, text]) => [text, key]));

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

/** The locale key of a server message text (src/shared/messages.ts), e.g. 'server.required', or null. */
export function serverMessageKey(text: string): string | null {
  const key = KEY_BY_TEXT.get(text.trim());
  return key ? `server.${key}` : null;
}

/** Shows a server message in the current language when it is one of the shared texts, else as sent. */
export function translateServerMessage(t: Translate, text: string): string {
  const key = serverMessageKey(text);
  return key ? t(key) : text;
}

/** The message to show for a failed call: the translated shared text, the code's standard text, or a generic one. */
export function translateApiError(t: Translate, error: unknown): string {
  if (error instanceof ApiError) {
    const byText = serverMessageKey(error.message);
    if (byText) return t(byText);
    const byCode = KEY_BY_CODE[error.code];
    if (byCode) return t(`server.${byCode}`);
    if (error.status === 0) return t('errors.network');
    if (error.message) return error.message;
  }
  return t('errors.generic');
}
