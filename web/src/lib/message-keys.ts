import { MESSAGES } from '@shared/messages';

// The one place that maps what the server says to the locale keys the console shows it with (spec 5: every field
// message in the user's language). Fixed texts by their exact words; texts that carry a value by pattern, with the
// value handed to the translation. A text found in neither is shown as the server sent it. Here are the texts every
// screen may meet (a guest's too); the signed-in areas' texts are in area-message-keys.ts, added with the areas'
// English when someone is signed in (web/src/app/i18n.ts: loading them here put every contract's zod schemas into the
// sign-in page's first script).

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** Fixed server texts and their locale keys. */
export const MESSAGE_KEYS = new Map<string, string>(Object.entries(MESSAGES).map(([key, text]): [string, string] => [text, `server.${key}`]));

/** A server text that carries a value: its pattern, its locale key, and the values the translation needs. */
export interface MessagePattern {
  re: RegExp;
  key: string;
  values: (match: RegExpExecArray, t: Translate) => Record<string, unknown>;
}

export const MESSAGE_PATTERNS: MessagePattern[] = [
  { re: /^At most (\d+) characters$/, key: 'server.atMostCharacters', values: (m) => ({ count: Number(m[1]) }) },
  { re: /^Value must be greater than "(.*)"$/, key: 'server.greaterThan', values: (m) => ({ value: m[1] }) },
  // The organisation's numbers: message retention, the soft-bounce rule.
  { re: /^Must be a whole number of days from (\d+) to (\d+)$/, key: 'server.wholeDaysRange', values: (m) => ({ min: Number(m[1]), max: Number(m[2]) }) },
  { re: /^Must be a whole number from (\d+) to (\d+)$/, key: 'server.wholeRange', values: (m) => ({ min: Number(m[1]), max: Number(m[2]) }) },
];

/** Adds texts and patterns to the maps (the signed-in areas' ones, once loaded); adding the same again changes nothing. */
export function addMessageKeys(keys: Iterable<[string, string]>, patterns: readonly MessagePattern[]): void {
  for (const [text, key] of keys) MESSAGE_KEYS.set(text, key);
  for (const pattern of patterns) if (!MESSAGE_PATTERNS.includes(pattern)) MESSAGE_PATTERNS.push(pattern);
}
