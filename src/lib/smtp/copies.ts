// A message's cc, bcc and reply-to for SMTP: the Cc header's list, the envelope's copies (recipients whose refusal
// does not fail the message, src/lib/smtp/send.ts) and, after the session, the copies the server refused as the
// result's `refused` note (src/lib/transport/types.ts RefusedCopy).
import type { OutgoingMessage, RefusedCopy, SendResult } from '../transport/types';
import { formatReply, isTransient } from './reply';
import { isValidAddress, type Refusal } from './send';

/** The failure of a message with an address that cannot go into a command line or a header. */
export function invalidAddress(what: string, address: string): SendResult {
  return { ok: false, retryable: false, error: `The ${what} address "${address}" is not a valid email address.` };
}

export interface MessageCopies {
  /** The Cc header's addresses: trimmed, each once, in the given order. */
  cc?: string[];
  replyTo?: string;
  /** Envelope recipients besides `to`: cc then bcc, each address once (case aside), never `to` again. */
  copies?: string[];
  /** The copies that are bcc only, in lower case (to tell a refused bcc from a refused cc). */
  bccOnly?: ReadonlySet<string>;
}

/** A message's cc, bcc and reply-to checked and sorted out; an address that is not valid fails the message. */
export function copiesOf(message: OutgoingMessage, to: string): MessageCopies | { failure: SendResult } {
  const sorted: MessageCopies = {};
  const replyTo = message.replyTo?.trim();
  if (replyTo) {
    if (!isValidAddress(replyTo)) return { failure: invalidAddress('reply-to', replyTo) };
    sorted.replyTo = replyTo;
  }
  const seen = new Set([to.toLowerCase()]);
  const copies: string[] = [];
  const cc: string[] = [];
  const ccSeen = new Set<string>();
  for (const raw of message.cc ?? []) {
    const address = raw.trim();
    if (!isValidAddress(address)) return { failure: invalidAddress('cc', address) };
    const key = address.toLowerCase();
    if (ccSeen.has(key)) continue;
    ccSeen.add(key);
    cc.push(address);
    if (!seen.has(key)) copies.push(address);
    seen.add(key);
  }
  const bccOnly = new Set<string>();
  for (const raw of message.bcc ?? []) {
    const address = raw.trim();
    if (!isValidAddress(address)) return { failure: invalidAddress('bcc', address) };
    const key = address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    copies.push(address);
    bccOnly.add(key);
  }
  if (cc.length > 0) sorted.cc = cc;
  if (copies.length > 0) sorted.copies = copies;
  if (bccOnly.size > 0) sorted.bccOnly = bccOnly;
  return sorted;
}

/** The copies the server refused, as the result's note: which field each came from, the answer, whether temporary. */
export function refusedCopies(rejected: Refusal[], bccOnly: ReadonlySet<string> | undefined): RefusedCopy[] {
  return rejected.map(({ recipient, reply }) => ({
    address: recipient,
    field: bccOnly?.has(recipient.toLowerCase()) ? 'bcc' : 'cc',
    error: formatReply(reply),
    retryable: isTransient(reply),
  }));
}
