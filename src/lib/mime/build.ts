// Building the message that goes over SMTP. The MIME structure (multipart/alternative inside multipart/mixed,
// boundaries, Date, MIME-Version) comes from `mimetext`; what it leaves to the caller is done here: every part
// encoded to short 7-bit lines, headers encoded per RFC 2047, file names made safe, and no Bcc header ever (bcc
// recipients exist only in the SMTP envelope, src/lib/smtp/transport.ts).
import { createMimeMessage, Mailbox, type MIMEMessage } from 'mimetext/browser';
import type { OutgoingAttachment } from '../transport/types';
import { base64Lines, encodeFileName, encodeHeaderValue, encodeStructuredHeader, encodeTextBody, formatMailbox, headerSafe } from './encode';
import { htmlToText } from './html-to-text';

export interface EmailContent {
  /** Without angle brackets; see messageIdFor(). */
  messageId: string;
  from: { address: string; name?: string | null };
  to: string;
  /** Addresses for the Cc header (checked by the caller, as `to` is). */
  cc?: string[];
  /** The Reply-To address (checked by the caller). */
  replyTo?: string | null;
  subject?: string | null;
  /** The html (when `html`) or the plain text. */
  body: string;
  html?: boolean;
  /** Plain-text alternative of an html body; derived from the html when empty. */
  bodyPlain?: string | null;
  attachments?: OutgoingAttachment[];
  returnPath?: string | null;
  /** Extra headers (e.g. List-Unsubscribe), written by our code in their wire form (encodeStructuredHeader). Bcc and the headers set here are dropped. */
  headers?: Record<string, string> | null;
}

/** Headers this builder owns, plus Bcc, which must never leave the worker. */
const RESERVED = new Set([
  'bcc',
  'from',
  'to',
  'cc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'return-path',
  'sender',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
]);
const HEADER_NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;

/** Builds the whole message (headers and body, CRLF line ends) ready for DATA. */
export function buildEmail(content: EmailContent): string {
  const msg = createMimeMessage();
  msg.setSender({ addr: content.from.address, name: content.from.name ?? '' });
  msg.setTo({ addr: content.to });
  if (content.cc?.length) msg.setCc(content.cc.map((addr) => ({ addr })));
  if (content.replyTo) msg.setHeader('Reply-To', new Mailbox({ addr: content.replyTo }));
  msg.setSubject(content.subject ?? '');
  applyOwnHeaderEncoding(msg);
  msg.setHeader('Message-ID', `<${content.messageId}>`);
  if (content.returnPath) msg.setHeader('Return-Path', `<${headerSafe(content.returnPath).trim()}>`);
  for (const [name, value] of Object.entries(content.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase()) || name.toLowerCase().startsWith('content-')) continue;
    msg.setHeader(name, encodeStructuredHeader(String(value)));
  }

  if (content.html) {
    const plain = content.bodyPlain?.trim() ? content.bodyPlain : htmlToText(content.body);
    addText(msg, 'text/plain', plain);
    addText(msg, 'text/html', content.body);
  } else {
    addText(msg, 'text/plain', content.body);
  }
  for (const file of content.attachments ?? []) {
    msg.addAttachment({
      filename: encodeFileName(file.filename),
      contentType: CONTENT_TYPE.test(file.contentType) ? file.contentType : 'application/octet-stream',
      encoding: 'base64',
      data: base64Lines(file.content),
    });
  }
  return msg.asRaw();
}

function addText(msg: MIMEMessage, contentType: 'text/plain' | 'text/html', text: string): void {
  const { data, encoding } = encodeTextBody(text);
  msg.addMessage({ contentType, data, encoding, charset: 'UTF-8' });
}

/**
 * mimetext encodes the whole subject and each display name as one base64 word, whatever the length, which breaks
 * the 75-character limit of RFC 2047 for long ones. Its header fields take a `dump` function: give them ours.
 */
function applyOwnHeaderEncoding(msg: MIMEMessage): void {
  for (const field of msg.headers.fields) {
    const name = field.name.toLowerCase();
    if (name === 'subject') field.dump = dumpSubject;
    if (name === 'from' || name === 'to' || name === 'cc' || name === 'reply-to') field.dump = dumpMailboxes;
    // Never written: mimetext knows the header, we never set it, and this makes sure it stays out.
    if (name === 'bcc') field.disabled = true;
  }
}

function dumpSubject(value: unknown): string {
  return typeof value === 'string' ? encodeHeaderValue(value) : '';
}

/** Mailboxes as a header value: one as it is, several separated by commas, folded after one when a line grows long. */
function dumpMailboxes(value: unknown): string {
  const boxes = (Array.isArray(value) ? value : value ? [value] : []) as Mailbox[];
  let text = '';
  let line = 0;
  for (const box of boxes) {
    const mailbox = formatMailbox(box.addr, box.name);
    if (text) {
      const fold = line + 2 + mailbox.length > 76;
      text += fold ? ',\r\n ' : ', ';
      line = fold ? 1 : line + 2;
    }
    text += mailbox;
    line += mailbox.length;
  }
  return text;
}
