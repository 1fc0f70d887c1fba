// DKIM-Signature (RFC 6376): relaxed/relaxed, rsa-sha256, over a message as built (src/lib/mime/build.ts), before
// dot-stuffing. The caller imports the key once (importDkimKey) and signs each message of a batch with it.
import { toBase64 } from './binary';
import { relaxedBody, relaxedHeader } from './canonicalize';
import { parseHeaderFields, selectSignedFields } from './header-fields';

export interface DkimSigner {
  /** The signing domain (d=), e.g. the From address's domain. */
  domain: string;
  /** The selector (s=): the key record is at `<selector>._domainkey.<domain>`. */
  selector: string;
  /** From importDkimKey. */
  key: CryptoKey;
}

export interface DkimMessage {
  /** The header block as built, CRLF line ends (a trailing blank line is allowed). */
  headers: string;
  /** The body as it will be sent (before dot-stuffing): text, or its bytes. */
  body: string | Uint8Array;
}

export interface DkimSignOptions {
  /** The signature's time (t=), Unix seconds; now when absent. */
  timestamp?: number;
}

/** Longest line of the header we write, CRLF not counted (RFC 5322 2.1.1's "should"). */
const LINE = 78;
/** A domain name or a selector: dot-separated labels of letters, digits, hyphens and underscores. */
const DNS_NAME = /^(?!-)[A-Za-z0-9_-]{1,63}(?:\.(?!-)[A-Za-z0-9_-]{1,63})*$/;
const encoder = new TextEncoder();

/** The message split where the header block ends (the first empty line); no empty line means no body. */
export function splitMessage(raw: string): DkimMessage {
  const end = raw.indexOf('\r\n\r\n');
  return end < 0 ? { headers: raw, body: '' } : { headers: raw.slice(0, end + 2), body: raw.slice(end + 4) };
}

/** The message with its DKIM-Signature header put first. */
export async function signEmail(signer: DkimSigner, raw: string, options?: DkimSignOptions): Promise<string> {
  return (await dkimSignatureHeader(signer, splitMessage(raw), options)) + raw;
}

/** bh=: base64 of the SHA-256 of the relaxed body. */
export async function dkimBodyHash(body: string | Uint8Array): Promise<string> {
  return toBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', relaxedBody(body))));
}

/**
 * The DKIM-Signature header field for the message, folded to lines of at most 78 characters and ending in CRLF:
 * put it before the message's first header.
 */
export async function dkimSignatureHeader(signer: DkimSigner, message: DkimMessage, options: DkimSignOptions = {}): Promise<string> {
  if (!DNS_NAME.test(signer.domain)) throw new Error(`Not a domain name for DKIM: "${signer.domain}"`);
  if (!DNS_NAME.test(signer.selector)) throw new Error(`Not a DKIM selector: "${signer.selector}"`);
  const timestamp = Math.floor(options.timestamp ?? Date.now() / 1000);
  const { names, covered } = selectSignedFields(parseHeaderFields(message.headers));

  const header = new FoldedHeader('DKIM-Signature:');
  for (const tag of ['v=1;', 'a=rsa-sha256;', 'c=relaxed/relaxed;', `d=${signer.domain};`, `s=${signer.selector};`, `t=${timestamp};`]) {
    header.add(tag, ' ');
  }
  // h= folds after a colon where needed: FWS is allowed around its colons (3.5).
  names.forEach((name, i) => {
    header.add(`${i === 0 ? 'h=' : ''}${name}${i === names.length - 1 ? ';' : ':'}`, i === 0 ? ' ' : '');
  });
  header.add(`bh=${await dkimBodyHash(message.body)};`, ' ');
  header.add('b=', ' ');

  // The hash input (3.7): the covered fields, each relaxed with its CRLF, then this header with b= empty and no CRLF.
  let signed = '';
  for (const field of covered) signed += `${relaxedHeader(field.name, field.value)}\r\n`;
  const unsigned = header.text();
  signed += relaxedHeader('DKIM-Signature', unsigned.slice(unsigned.indexOf(':') + 1));
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', signer.key, encoder.encode(signed));

  header.addBreakable(toBase64(new Uint8Array(signature)));
  return `${header.text()}\r\n`;
}

/** Writes a header field in pieces, starting a new line (CRLF and a space) when a piece would pass LINE. */
class FoldedHeader {
  private lines: string[] = [];
  private line: string;

  constructor(start: string) {
    this.line = start;
  }

  /** A piece that is never split, after `separator` when it stays on the current line. */
  add(piece: string, separator: string): void {
    if (this.line.length + separator.length + piece.length <= LINE) this.line += separator + piece;
    else this.newLine(piece);
  }

  /** Text that may be split anywhere (a base64 value, in which whitespace is ignored), filling each line. */
  addBreakable(text: string): void {
    let rest = text;
    while (rest) {
      const room = LINE - this.line.length;
      if (room <= 0) {
        this.newLine('');
        continue;
      }
      this.line += rest.slice(0, room);
      rest = rest.slice(room);
    }
  }

  text(): string {
    return [...this.lines, this.line].join('\r\n');
  }

  private newLine(piece: string): void {
    this.lines.push(this.line);
    this.line = ` ${piece}`;
  }
}
