// Finding a person's rows in stored files without parsing them (an import file may be 100 MB, in UTF-8 or
// Windows-1252): a line is theirs when it holds one of their email addresses (ASCII case aside) or a cell whose
// digits are their phone number's (as typed in a file: spaces, dashes, a national number without the country code).
// A quoted value spanning lines is matched line by line: the line with their address goes.

const LF = 10;
const encoder = new TextEncoder();
const lowerAscii = (b: number) => (b >= 65 && b <= 90 ? b + 32 : b);
const SHORTEST_NATIONAL = 7;

export interface Needles {
  emails: Uint8Array[];
  phoneDigits: string[];
}

export function needlesOf(addresses: { type: string; value: string }[]): Needles {
  return {
    emails: addresses.filter((a) => a.type === 'email').map((a) => encoder.encode(a.value.toLowerCase())),
    phoneDigits: addresses.filter((a) => a.type === 'phone').map((a) => a.value.replace(/\D/g, '')),
  };
}

function holdsBytes(line: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i + needle.length <= line.length; i++) {
    for (let j = 0; j < needle.length; j++) if (lowerAscii(line[i + j]) !== needle[j]) continue outer;
    return true;
  }
  return false;
}

function holdsPhone(line: Uint8Array, phones: string[]): boolean {
  let text = '';
  for (const b of line) text += String.fromCharCode(b);
  return text.split(/[,;\t]/).some((cell) => {
    const digits = cell.replace(/\D/g, '');
    return digits.length >= SHORTEST_NATIONAL && phones.some((phone) => phone === digits || phone.endsWith(digits));
  });
}

/** Whether a line (bytes, without its newline or with it) is the person's. */
export function isTheirLine(line: Uint8Array, needles: Needles): boolean {
  return needles.emails.some((n) => holdsBytes(line, n)) || (needles.phoneDigits.length > 0 && holdsPhone(line, needles.phoneDigits));
}

/** The lines of a byte stream, each with its newline (the last one may have none). */
export async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  let carry = new Uint8Array(0);
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    const joined = new Uint8Array(carry.length + chunk.length);
    joined.set(carry);
    joined.set(chunk, carry.length);
    let start = 0;
    for (let i = 0; i < joined.length; i++) {
      if (joined[i] !== LF) continue;
      yield joined.subarray(start, i + 1);
      start = i + 1;
    }
    carry = joined.slice(start);
  }
  if (carry.length) yield carry;
}

/** Whether a text (a kept mail's header value, a reason) mentions one of the person's email addresses. */
export const mentionsEmail = (text: string, needles: Needles) => needles.emails.some((n) => holdsBytes(encoder.encode(text), n));
