import { ADDRESS_MESSAGES } from '@shared/address';
import { BROADCAST_MESSAGES, SKIP_REASONS } from '@shared/contracts/broadcast';
import { CAMPAIGN_MAX_SETTINGS } from '@shared/contracts/campaign';
import { CONTACT_MESSAGES } from '@shared/contracts/contact';
import { DOMAIN_MESSAGES } from '@shared/contracts/domain';
import { FIELD_MESSAGES } from '@shared/contracts/field';
import { FORM_MESSAGES } from '@shared/contracts/form';
import { IMPORT_MESSAGES } from '@shared/contracts/import';
import { CSV_ERRORS } from '@shared/csv-scanner';
import { INTEGRATION_MESSAGES } from '@shared/contracts/integration';
import { ORG_KEY_MESSAGES } from '@shared/contracts/org-api-key';
import { PRIVACY_MESSAGES } from '@shared/contracts/privacy';
import { WEBHOOK_MESSAGES } from '@shared/contracts/webhook-messages';
import { SENDER_MESSAGES } from '@shared/contracts/sender';
import { ATTACHMENT_RULES, senderMismatchMessage, TEMPLATE_MESSAGES } from '@shared/contracts/template';
import type { MessagePattern } from './message-keys';

// The signed-in areas' part of the server texts' locale keys (web/src/lib/message-keys.ts holds the shared ones and
// the rules). Its keys are in the areas' English, which a guest never loads (web/src/app/i18n.ts), and its texts come
// from the contracts, whose schemas are built when a module of theirs is loaded: so this file is loaded with that
// English (loadConsoleEnglish), not in the sign-in page's first script.

/** Fixed server texts of the signed-in areas and their locale keys. */
export const AREA_MESSAGE_KEYS: [string, string][] = [
  // Audience: contacts, fields, the blacklist.
  [ADDRESS_MESSAGES.invalidPhone, 'audience.messages.invalidPhone'],
  [ADDRESS_MESSAGES.invalidType, 'audience.messages.invalidType'],
  [CONTACT_MESSAGES.addressTypeLocked, 'audience.messages.addressTypeLocked'],
  [CONTACT_MESSAGES.unknownAddress, 'audience.messages.unknownAddress'],
  [CONTACT_MESSAGES.unknownTag, 'audience.messages.unknownTag'],
  [CONTACT_MESSAGES.unknownField, 'audience.messages.unknownField'],
  [CONTACT_MESSAGES.unknownOption, 'audience.messages.unknownOption'],
  [CONTACT_MESSAGES.attributeValue, 'audience.messages.attributeValue'],
  [CONTACT_MESSAGES.expectNumber, 'audience.messages.expectNumber'],
  // An address on the "do not re-add" list: the contact form's address and an import's rejected row.
  [PRIVACY_MESSAGES.erasedAddress, 'audience.messages.erasedAddress'],
  // A person's erasure (web/src/features/contact/privacy).
  [PRIVACY_MESSAGES.confirmRequired, 'privacy.messages.confirmRequired'],
  [PRIVACY_MESSAGES.confirmMismatch, 'privacy.messages.confirmMismatch'],
  [PRIVACY_MESSAGES.importRunning, 'privacy.messages.importRunning'],
  [PRIVACY_MESSAGES.messagesUnderway, 'privacy.messages.messagesUnderway'],
  [FIELD_MESSAGES.alias, 'audience.messages.alias'],
  [FIELD_MESSAGES.typeLocked, 'audience.messages.typeLocked'],
  [FIELD_MESSAGES.unknownOption, 'audience.messages.unknownOption'],
  // Channels: integrations, senders, templates, campaigns, test messages.
  [INTEGRATION_MESSAGES.type, 'channels.messages.integrationType'],
  [INTEGRATION_MESSAGES.port, 'channels.messages.port'],
  [INTEGRATION_MESSAGES.server, 'channels.messages.server'],
  [INTEGRATION_MESSAGES.sid, 'channels.messages.sid'],
  [INTEGRATION_MESSAGES.syncSmtp, 'channels.messages.syncSmtp'],
  [INTEGRATION_MESSAGES.syncRunning, 'channels.messages.syncRunning'],
  [INTEGRATION_MESSAGES.sendgridKey, 'channels.messages.sendgridKey'],
  [SENDER_MESSAGES.type, 'channels.messages.senderType'],
  [SENDER_MESSAGES.integrationNotFound, 'channels.messages.integrationNotFound'],
  [SENDER_MESSAGES.emailNeedsSmtp, 'channels.messages.emailNeedsSmtp'],
  [SENDER_MESSAGES.phoneNeedsTwilio, 'channels.messages.phoneNeedsTwilio'],
  ['Choose an integration', 'channels.messages.chooseIntegration'],
  [TEMPLATE_MESSAGES.type, 'channels.messages.templateType'],
  [TEMPLATE_MESSAGES.alias, 'channels.messages.alias'],
  [TEMPLATE_MESSAGES.noFiles, 'channels.messages.noFiles'],
  [TEMPLATE_MESSAGES.tooManyFiles, 'channels.messages.tooManyFiles'],
  [TEMPLATE_MESSAGES.contactNotFound, 'channels.messages.contactNotFound'],
  [TEMPLATE_MESSAGES.senderNotFound, 'channels.messages.senderNotFound'],
  [TEMPLATE_MESSAGES.templateNotFound, 'channels.messages.templateNotFound'],
  [TEMPLATE_MESSAGES.blacklisted, 'channels.messages.blacklisted'],
  [TEMPLATE_MESSAGES.smsTooLong, 'channels.messages.smsTooLong'],
  [TEMPLATE_MESSAGES.textNeedsPhone, 'channels.messages.textNeedsPhone'],
  [senderMismatchMessage('html'), 'channels.messages.senderMismatch'],
  [senderMismatchMessage('email'), 'channels.messages.senderMismatch'],
  ['Choose a sender', 'channels.messages.chooseSender'],
  ['Choose a template', 'channels.messages.chooseTemplate'],
  ['Choose a contact', 'channels.messages.chooseContact'],
  [`At most ${CAMPAIGN_MAX_SETTINGS} items`, 'channels.messages.tooManySettings'],
  // Broadcasts: the engine's skip reasons and the form's rules.
  [SKIP_REASONS.noAddress.email, 'broadcasts.reasons.noEmail'],
  [SKIP_REASONS.noAddress.phone, 'broadcasts.reasons.noPhone'],
  [SKIP_REASONS.blacklisted, 'broadcasts.reasons.blacklisted'],
  [SKIP_REASONS.unsubscribed, 'broadcasts.reasons.unsubscribed'],
  [SKIP_REASONS.cancelled, 'broadcasts.reasons.cancelled'],
  [SKIP_REASONS.bounced, 'broadcasts.reasons.bounced'],
  [SKIP_REASONS.softBounced, 'broadcasts.reasons.softBounced'],
  [SKIP_REASONS.complained, 'broadcasts.reasons.complained'],
  [BROADCAST_MESSAGES.past, 'broadcasts.reasons.past'],
  [BROADCAST_MESSAGES.noRecipients, 'broadcasts.preview.none'],
  // The CSV import.
  [IMPORT_MESSAGES.noRows, 'imports.messages.noRows'],
  [IMPORT_MESSAGES.tooLarge, 'imports.messages.tooLarge'],
  [IMPORT_MESSAGES.fileMissing, 'imports.messages.fileMissing'],
  [IMPORT_MESSAGES.alreadyStarted, 'imports.messages.alreadyStarted'],
  [IMPORT_MESSAGES.duplicateTarget, 'imports.messages.duplicateTarget'],
  [IMPORT_MESSAGES.duplicateMapping, 'imports.messages.duplicateMapping'],
  [IMPORT_MESSAGES.unknownField, 'imports.messages.unknownField'],
  [IMPORT_MESSAGES.unknownTags, 'imports.messages.unknownTags'],
  // Rows of a CSV file the import's parser cannot read (the preview's problems and an import's rejections).
  [CSV_ERRORS.textAfterQuote, 'imports.messages.csvTextAfterQuote'],
  [CSV_ERRORS.unclosedQuote, 'imports.messages.csvUnclosedQuote'],
  [CSV_ERRORS.encoding, 'imports.messages.csvEncoding'],
  // Organisation API keys: the create dialog's scope rule.
  [ORG_KEY_MESSAGES.testScope, 'orgKeys.messages.testScope'],
  // Sending domains: the add form's rules, key rotation, and the senders' warnings.
  ...Object.entries(DOMAIN_MESSAGES).map(([key, text]): [string, string] => [text, `domains.messages.${key}`]),
  // Webhook endpoints: the form's rules, the limit, replays.
  ...Object.entries(WEBHOOK_MESSAGES).map(([key, text]): [string, string] => [text, `webhooks.messages.${key}`]),
  // Hosted sign-up forms.
  ...Object.entries(FORM_MESSAGES).map(([key, text]): [string, string] => [text, `forms.messages.${key}`]),
  ['Choose at least one subscription', 'forms.messages.chooseSubscription'],
];

/** Server texts of the signed-in areas that carry a value. */
export const AREA_MESSAGE_PATTERNS: MessagePattern[] = [
  { re: /^File (.+) has an unsupported type$/, key: 'channels.messages.unsupportedFile', values: (m) => ({ filename: m[1] }) },
  { re: /^File (.+) is larger than .+$/, key: 'channels.messages.tooLargeOne', values: (m) => ({ names: m[1], size: ATTACHMENT_RULES.maxBytes / 1_000_000 }) },
  {
    re: /^Files (.+) are larger than .+$/,
    key: 'channels.messages.tooLargeMany',
    values: (m) => ({ names: m[1], size: ATTACHMENT_RULES.maxBytes / 1_000_000 }),
  },
  { re: /^subject generation failed: ([\s\S]*)$/, key: 'channels.messages.subjectFailed', values: (m) => ({ error: m[1] }) },
  { re: /^body generation failed: ([\s\S]*)$/, key: 'channels.messages.bodyFailed', values: (m) => ({ error: m[1] }) },
  { re: /^plain body generation failed: ([\s\S]*)$/, key: 'channels.messages.bodyPlainFailed', values: (m) => ({ error: m[1] }) },
  { re: /^Field '(.+)' is required$/, key: 'imports.messages.required', values: (m, t) => ({ label: m[1] === 'Name' ? t('imports.targets.name') : m[1] }) },
  { re: /^Malformed CSV: the row is longer than (\d+) bytes/, key: 'imports.messages.csvTooLong', values: (m) => ({ max: Number(m[1]) }) },
  { re: /^The row has (\d+) columns?; the first line has (\d+)$/, key: 'imports.messages.columnCount', values: (m) => ({ found: m[1], first: m[2] }) },
  {
    re: new RegExp(`^${escapeRegExp(IMPORT_MESSAGES.addressRequired)}$`),
    key: 'imports.messages.addressRequired',
    values: (_m, t) => ({ types: [t('audience.addressTypes.email'), t('audience.addressTypes.phone')].join(', ') }),
  },
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
