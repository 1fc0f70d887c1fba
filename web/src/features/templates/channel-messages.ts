import { ADDRESS_MESSAGES } from '@shared/address';
import { CAMPAIGN_MAX_SETTINGS } from '@shared/contracts/campaign';
import { INTEGRATION_MESSAGES } from '@shared/contracts/integration';
import { SENDER_MESSAGES } from '@shared/contracts/sender';
import { ATTACHMENT_RULES, senderMismatchMessage, TEMPLATE_MESSAGES, TEMPLATE_TYPES } from '@shared/contracts/template';
import { translateServerMessage } from '../../lib/server-messages';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Server message texts of the channel screens (integrations, senders, templates, campaigns) and their locale keys. */
export const CHANNEL_MESSAGE_KEYS: Record<string, string> = {
  [INTEGRATION_MESSAGES.type]: 'channels.messages.integrationType',
  [INTEGRATION_MESSAGES.port]: 'channels.messages.port',
  [INTEGRATION_MESSAGES.server]: 'channels.messages.server',
  [INTEGRATION_MESSAGES.sid]: 'channels.messages.sid',
  [INTEGRATION_MESSAGES.syncSmtp]: 'channels.messages.syncSmtp',
  [INTEGRATION_MESSAGES.syncRunning]: 'channels.messages.syncRunning',
  [SENDER_MESSAGES.type]: 'channels.messages.senderType',
  [ADDRESS_MESSAGES.invalidPhone]: 'channels.messages.phone',
  [SENDER_MESSAGES.integrationNotFound]: 'channels.messages.integrationNotFound',
  [SENDER_MESSAGES.emailNeedsSmtp]: 'channels.messages.emailNeedsSmtp',
  [SENDER_MESSAGES.phoneNeedsTwilio]: 'channels.messages.phoneNeedsTwilio',
  'Choose an integration': 'channels.messages.chooseIntegration',
  [TEMPLATE_MESSAGES.type]: 'channels.messages.templateType',
  [TEMPLATE_MESSAGES.alias]: 'channels.messages.alias',
  [TEMPLATE_MESSAGES.noFiles]: 'channels.messages.noFiles',
  [TEMPLATE_MESSAGES.tooManyFiles]: 'channels.messages.tooManyFiles',
  [TEMPLATE_MESSAGES.contactNotFound]: 'channels.messages.contactNotFound',
  [TEMPLATE_MESSAGES.senderNotFound]: 'channels.messages.senderNotFound',
  [TEMPLATE_MESSAGES.templateNotFound]: 'channels.messages.templateNotFound',
  [TEMPLATE_MESSAGES.blacklisted]: 'channels.messages.blacklisted',
  [TEMPLATE_MESSAGES.smsTooLong]: 'channels.messages.smsTooLong',
  [TEMPLATE_MESSAGES.textNeedsPhone]: 'channels.messages.textNeedsPhone',
  'Choose a sender': 'channels.messages.chooseSender',
  'Choose a template': 'channels.messages.chooseTemplate',
  'Choose a contact': 'channels.messages.chooseContact',
  [`At most ${CAMPAIGN_MAX_SETTINGS} items`]: 'channels.messages.tooManySettings',
  ...Object.fromEntries(TEMPLATE_TYPES.map((type) => [senderMismatchMessage(type), 'channels.messages.senderMismatch'])),
};

/** Messages that carry a name or an error: their pattern, the locale key, and the values the key needs. */
const PATTERNS: { re: RegExp; key: string; values: (match: RegExpExecArray) => Record<string, unknown> }[] = [
  { re: /^File (.+) has an unsupported type$/, key: 'channels.messages.unsupportedFile', values: (m) => ({ filename: m[1] }) },
  { re: /^File (.+) is larger than .+$/, key: 'channels.messages.tooLargeOne', values: (m) => ({ names: m[1], size: ATTACHMENT_RULES.maxBytes / 1_000_000 }) },
  { re: /^Files (.+) are larger than .+$/, key: 'channels.messages.tooLargeMany', values: (m) => ({ names: m[1], size: ATTACHMENT_RULES.maxBytes / 1_000_000 }) },
  { re: /^subject generation failed: ([\s\S]*)$/, key: 'channels.messages.subjectFailed', values: (m) => ({ error: m[1] }) },
  { re: /^body generation failed: ([\s\S]*)$/, key: 'channels.messages.bodyFailed', values: (m) => ({ error: m[1] }) },
  { re: /^plain body generation failed: ([\s\S]*)$/, key: 'channels.messages.bodyPlainFailed', values: (m) => ({ error: m[1] }) },
];

/** A server or in-browser message in the user's language: channel texts first, then the shared ones, else as sent. */
export function translateChannelMessage(t: Translate, text: string): string {
  const key = CHANNEL_MESSAGE_KEYS[text];
  if (key) return t(key);
  for (const pattern of PATTERNS) {
    const match = pattern.re.exec(text);
    if (match) return t(pattern.key, pattern.values(match));
  }
  return translateServerMessage(t, text);
}

/** All messages of one path, translated and joined (undefined when there are none), for an input's error. */
export function channelErrorText(t: Translate, errors: Record<string, string[]>, path: string): string | undefined {
  const messages = errors[path];
  return messages?.length ? messages.map((message) => translateChannelMessage(t, message)).join(' ') : undefined;
}
