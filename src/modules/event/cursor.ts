// The pull API's cursor: opaque to clients, base64url of the JSON of the last seq read in each of the organisation's
// ledger generations ({ "0": 1234, "1": 56 }); a generation it does not name is read from its start.

export type StreamCursor = Record<number, number>;

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const fromBase64Url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));

export function encodeCursor(cursor: StreamCursor): string {
  return toBase64Url(JSON.stringify(cursor));
}

/** The cursor `text` stands for; null when it is not one this API made. */
export function decodeCursor(text: string): StreamCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(fromBase64Url(text));
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const cursor: StreamCursor = {};
  for (const [generation, seq] of Object.entries(value)) {
    if (!/^(0|[1-9]\d{0,5})$/.test(generation) || !Number.isSafeInteger(seq) || (seq as number) < 0) return null;
    cursor[Number(generation)] = seq as number;
  }
  return cursor;
}
