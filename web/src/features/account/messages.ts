import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-error';
import { serverMessageKey, translateApiError, translateServerMessage } from '../../lib/server-messages';

/**
 * Translators for server texts in the account area: a shared message is shown in the user's language when
 * its locale key exists, otherwise as the server sent it (never as a bare locale key).
 */
export function useServerText() {
  const { t, i18n } = useTranslation();
  const known = (text: string) => {
    const key = serverMessageKey(text);
    return key === null || i18n.exists(key);
  };
  return {
    /** One server field or error message. */
    message: (text: string) => (known(text) ? translateServerMessage(t, text) : text),
    /** The message of a failed call (demo lock, last login method, conflicts...). */
    error: (error: unknown) => (error instanceof ApiError && !known(error.message) ? error.message : translateApiError(t, error)),
    /** Several field messages joined for one input, or undefined when there are none. */
    field: (messages: string[] | undefined) => (messages?.length ? messages.map((m) => (known(m) ? translateServerMessage(t, m) : m)).join(' ') : undefined),
  };
}
