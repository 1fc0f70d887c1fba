// Bytes as "binary" text (one character per byte) and base64, without node:buffer, so the DKIM code runs as it is
// in the Workers runtime, Node and the browser.

/** Bytes as text with one character per byte (0-255), for string operations that must keep every byte. */
export function latin1Text(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return text;
}

/** The inverse of latin1Text. */
export function latin1Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

export const toBase64 = (bytes: Uint8Array): string => btoa(latin1Text(bytes));

export const fromBase64 = (text: string): Uint8Array => latin1Bytes(atob(text));
