// TXT record data as DNS holds it: one record is a list of character-strings of at most 255 bytes each, which
// readers concatenate (RFC 7208 3.3, RFC 6376 3.6.2.2); separate records stay separate. Zone files and Cloudflare's
// JSON API write each string quoted, with \" \\ and \DDD (a decimal byte) escapes (RFC 1035 5.1).

const MAX_STRING_BYTES = 255;
const utf8 = new TextEncoder();

/**
 * The text of one TXT record from its presentation form: `"v=DKIM1; p=MII" "BIj..."` becomes the strings joined.
 * Data that does not start with a quote is taken as it is (some resolvers answer the text unquoted).
 */
export function joinTxtData(data: string): string {
  const text = data.trim();
  if (!text.startsWith('"')) return text;
  const bytes: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      inString = !inString;
      continue;
    }
    // Between quoted strings only the spaces that separate them.
    if (!inString) continue;
    if (ch === '\\' && i + 1 < text.length) {
      const decimal = /^\d{3}/.exec(text.slice(i + 1, i + 4));
      if (decimal) {
        bytes.push(Number(decimal[0]) & 0xff);
        i += 3;
      } else {
        bytes.push(...utf8.encode(text[++i]));
      }
      continue;
    }
    bytes.push(...utf8.encode(ch));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Splits a value into character-strings of at most 255 bytes, never inside a UTF-8 character. */
export function splitTxtValue(value: string): string[] {
  const strings: string[] = [];
  let current = '';
  let currentBytes = 0;
  for (const ch of value) {
    const size = utf8.encode(ch).length;
    if (currentBytes + size > MAX_STRING_BYTES) {
      strings.push(current);
      current = '';
      currentBytes = 0;
    }
    current += ch;
    currentBytes += size;
  }
  if (current || strings.length === 0) strings.push(current);
  return strings;
}

/** The zone-file form of a TXT value: its 255-byte strings, each quoted and escaped, separated by spaces. */
export function quoteTxtValue(value: string): string {
  return splitTxtValue(value)
    .map((s) => `"${s.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`)
    .join(' ');
}
