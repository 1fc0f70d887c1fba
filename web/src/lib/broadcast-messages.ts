import { BROADCAST_MESSAGES, SKIP_REASONS } from '@shared/contracts/broadcast';
import { translateServerMessage } from './server-messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;

// Fixed texts of the broadcast engine (skip reasons, form rules) by locale key, so recipients, messages and the
// broadcast form show them in the user's language; anything else (a provider's words) is shown as sent.
const KEY_BY_TEXT = new Map<string, string>([
  [SKIP_REASONS.noAddress.email, 'broadcasts.reasons.noEmail'],
  [SKIP_REASONS.noAddress.phone, 'broadcasts.reasons.noPhone'],
  [SKIP_REASONS.blacklisted, 'broadcasts.reasons.blacklisted'],
  [SKIP_REASONS.unsubscribed, 'broadcasts.reasons.unsubscribed'],
  [SKIP_REASONS.cancelled, 'broadcasts.reasons.cancelled'],
  [BROADCAST_MESSAGES.past, 'broadcasts.reasons.past'],
  [BROADCAST_MESSAGES.noRecipients, 'broadcasts.preview.none'],
]);

/** A broadcast or server text in the current language when it is a known one, else as sent. */
export function translateBroadcastText(t: Translate, text: string): string {
  const key = KEY_BY_TEXT.get(text.trim());
  return key ? t(key) : translateServerMessage(t, text);
}
