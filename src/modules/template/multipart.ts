// A streaming reader of multipart/form-data request bodies (RFC 7578): it hands each part's bytes to a sink
// as they arrive, so an upload is never held in memory as a whole (request.formData() would buffer it all).

export interface PartInfo {
  /** The form field name. */
  name: string | null;
  /** The file name as sent (may carry a path on old browsers), null for plain fields. */
  filename: string | null;
  contentType: string | null;
}

export interface PartSink {
  write(chunk: Uint8Array): void | Promise<void>;
  end(): void | Promise<void>;
}

export class MultipartError extends Error {}

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);

/** The boundary of a multipart/form-data Content-Type, or null when it is not one. */
export function multipartBoundary(contentType: string | undefined | null): string | null {
  if (!contentType || !/^\s*multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : null;
}

/** Position of `needle` in `haystack` from `from`, or -1. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Reads the Content-Disposition and Content-Type of a part's header block. */
function parsePartHeaders(block: Uint8Array): PartInfo {
  const text = new TextDecoder().decode(block);
  const info: PartInfo = { name: null, filename: null, contentType: null };
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === 'content-type') info.contentType = value;
    if (header !== 'content-disposition') continue;
    const param = (key: string) => {
      const re = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i');
      const m = re.exec(value);
      return m ? (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2].trim()) : null;
    };
    info.name = param('name');
    info.filename = param('filename');
    const extended = param('filename\\*');
    if (extended) {
      const m = /^([\w-]+)'[^']*'(.*)$/.exec(extended);
      try {
        if (m && m[1].toLowerCase() === 'utf-8') info.filename = decodeURIComponent(m[2]);
      } catch {
        // keep the plain filename
      }
    }
  }
  return info;
}

/**
 * Streams a multipart body: for every part `onPart` gets its headers and returns the sink its bytes go to.
 * Throws MultipartError when the body is not well-formed multipart with this boundary.
 */
export async function readMultipart(body: ReadableStream<Uint8Array>, boundary: string, onPart: (part: PartInfo) => PartSink): Promise<void> {
  const encoder = new TextEncoder();
  // A leading CRLF lets the first delimiter be found like every later one.
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  let buffer: Uint8Array = CRLF;
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let sink: PartSink | null = null;
  const reader = body.getReader();
  let finished = false;

  try {
    while (state !== 'done') {
      let progressed = true;
      while (progressed && (state as string) !== 'done') {
        progressed = false;
        if (state === 'preamble') {
          const at = indexOf(buffer, delimiter);
          if (at >= 0) {
            buffer = buffer.subarray(at + delimiter.length);
            state = 'after-delimiter';
            progressed = true;
          } else if (buffer.length > delimiter.length) {
            buffer = buffer.subarray(buffer.length - delimiter.length);
          }
        } else if (state === 'after-delimiter') {
          if (buffer.length < 2) break;
          if (buffer[0] === 45 && buffer[1] === 45) {
            state = 'done';
            break;
          }
          // Transport padding (spaces or tabs) may follow the delimiter before its CRLF.
          const eol = indexOf(buffer, CRLF);
          if (eol < 0) {
            if (buffer.length > 256) throw new MultipartError('malformed multipart delimiter');
            break;
          }
          if (buffer.subarray(0, eol).some((b) => b !== 32 && b !== 9)) throw new MultipartError('malformed multipart delimiter');
          buffer = buffer.subarray(eol + 2);
          state = 'headers';
          progressed = true;
        } else if (state === 'headers') {
          // A part without headers starts with CRLF right away.
          const end = buffer[0] === 13 && buffer[1] === 10 ? -2 : indexOf(buffer, HEADER_END);
          if (end === -1) {
            if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('multipart part headers are too long');
            break;
          }
          const block = end === -2 ? new Uint8Array(0) : buffer.subarray(0, end);
          buffer = buffer.subarray(end === -2 ? 2 : end + 4);
          sink = onPart(parsePartHeaders(block));
          state = 'body';
          progressed = true;
        } else if (state === 'body') {
          const at = indexOf(buffer, delimiter);
          if (at >= 0) {
            if (at > 0) await sink!.write(buffer.slice(0, at));
            await sink!.end();
            sink = null;
            buffer = buffer.subarray(at + delimiter.length);
            state = 'after-delimiter';
            progressed = true;
          } else if (buffer.length >= delimiter.length) {
            // Keep only what could be the start of a delimiter split across chunks.
            const safe = buffer.length - delimiter.length + 1;
            await sink!.write(buffer.slice(0, safe));
            buffer = buffer.subarray(safe);
          }
        }
      }
      if ((state as string) === 'done') break;
      const { value, done } = await reader.read();
      if (done) {
        finished = true;
        throw new MultipartError('the multipart body ended before its closing delimiter');
      }
      if (value?.length) buffer = concat(buffer, value);
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
  }
}
