// The header fields of a built message and the ones a DKIM signature covers (RFC 6376 5.4).

export interface HeaderField {
  /** As written, e.g. "Subject". */
  name: string;
  /** Everything after the colon, folds included. */
  value: string;
}

/**
 * The fields DKIM-Signature's h= names, in that order, when the message has them: what identifies the author and
 * the content, and what RFC 8058 needs signed for one-click unsubscribe. An allow-list, so headers a relay strips or
 * rewrites (SendGrid's X-SMTPAPI, Return-Path, Received) are never signed and the signature survives the relay.
 */
export const SIGNED_HEADERS = [
  'from',
  'to',
  'cc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'reply-to',
  'list-unsubscribe',
  'list-unsubscribe-post',
  'list-id',
  'feedback-id',
] as const;

/** Named once more than they occur ("oversigned", 5.4.2), so a verifier fails a message to which one was added. */
const OVERSIGNED: ReadonlySet<string> = new Set(['from', 'subject']);

/** Splits a header block (CRLF line ends; a trailing blank line is allowed) into its fields, folds kept. */
export function parseHeaderFields(block: string): HeaderField[] {
  const fields: HeaderField[] = [];
  for (const line of block.split(/\r\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue; // the blank line that ends the block, or a line that is no field
    fields.push({ name: line.slice(0, colon), value: line.slice(colon + 1) });
  }
  return fields;
}

/**
 * The h= list and the fields it covers, in the order they are hashed. A name listed n times covers its last n
 * occurrences, bottom-up (5.4.2); a listing beyond the occurrences covers none (hashed as nothing).
 */
export function selectSignedFields(fields: readonly HeaderField[]): { names: string[]; covered: HeaderField[] } {
  const byName = new Map<string, HeaderField[]>();
  for (const field of fields) {
    const key = field.name.trimEnd().toLowerCase();
    const list = byName.get(key);
    if (list) list.push(field);
    else byName.set(key, [field]);
  }
  const names: string[] = [];
  const covered: HeaderField[] = [];
  for (const name of SIGNED_HEADERS) {
    const present = byName.get(name) ?? [];
    for (let i = present.length - 1; i >= 0; i--) {
      names.push(name);
      covered.push(present[i]);
    }
    if (OVERSIGNED.has(name)) names.push(name);
  }
  return { names, covered };
}
