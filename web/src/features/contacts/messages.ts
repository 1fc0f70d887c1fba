import { ADDRESS_MESSAGES } from '@shared/address';
import { CONTACT_MESSAGES } from '@shared/contracts/contact';
import { FIELD_MESSAGES } from '@shared/contracts/field';
import { translateServerMessage } from '../../lib/server-messages';

type Translate = (key: string) => string;

/** Server message texts of the audience screens (contacts, fields, blacklist) and their locale keys. */
export const AUDIENCE_MESSAGE_KEYS: Record<string, string> = {
  [ADDRESS_MESSAGES.invalidPhone]: 'audience.messages.invalidPhone',
  [ADDRESS_MESSAGES.invalidType]: 'audience.messages.invalidType',
  [CONTACT_MESSAGES.addressTypeLocked]: 'audience.messages.addressTypeLocked',
  [CONTACT_MESSAGES.unknownAddress]: 'audience.messages.unknownAddress',
  [CONTACT_MESSAGES.unknownTag]: 'audience.messages.unknownTag',
  [CONTACT_MESSAGES.unknownField]: 'audience.messages.unknownField',
  [CONTACT_MESSAGES.unknownOption]: 'audience.messages.unknownOption',
  [CONTACT_MESSAGES.attributeValue]: 'audience.messages.attributeValue',
  [CONTACT_MESSAGES.expectNumber]: 'audience.messages.expectNumber',
  [FIELD_MESSAGES.alias]: 'audience.messages.alias',
  [FIELD_MESSAGES.typeLocked]: 'audience.messages.typeLocked',
  [FIELD_MESSAGES.unknownOption]: 'audience.messages.unknownOption',
};

/** A server or in-browser message in the user's language: audience texts first, then the shared ones. */
export function translateAudienceMessage(t: Translate, text: string): string {
  const key = AUDIENCE_MESSAGE_KEYS[text];
  return key ? t(key) : translateServerMessage(t, text);
}

/** All messages of one path, translated and joined (undefined when there are none), for an input's error. */
export function errorText(t: Translate, errors: Record<string, string[]>, path: string): string | undefined {
  const messages = errors[path];
  return messages?.length ? messages.map((message) => translateAudienceMessage(t, message)).join(' ') : undefined;
}
