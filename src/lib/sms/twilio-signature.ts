// Twilio's webhook signature (X-Twilio-Signature): base64 HMAC-SHA1, keyed with the account's auth token, of the
// full public URL Twilio called followed by every POST parameter sorted by name, as name+value with nothing between.

const encoder = new TextEncoder();

/** The string Twilio signs: the URL, then each parameter (sorted by name, then value) as name+value. */
export function signedText(url: string, params: Iterable<[string, string]>): string {
  const sorted = [...params].sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return url + sorted.map(([name, value]) => name + value).join('');
}

function hmacKey(authToken: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(authToken), { name: 'HMAC', hash: 'SHA-1' }, false, [usage]);
}

/** The signature Twilio would send for this request (the SMS catcher and tests sign with it). */
export async function twilioSignature(authToken: string, url: string, params: Iterable<[string, string]>): Promise<string> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(authToken, 'sign'), encoder.encode(signedText(url, params)));
  return btoa(String.fromCharCode(...new Uint8Array(mac)));
}

function base64Bytes(value: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(value.trim()), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * True when `header` is Twilio's signature of this request. crypto.subtle.verify compares in constant time, so
 * how much of a forged signature matched never shows in the answer's timing.
 */
export async function validTwilioSignature(
  authToken: string,
  url: string,
  params: Iterable<[string, string]>,
  header: string | null | undefined,
): Promise<boolean> {
  const signature = header ? base64Bytes(header) : null;
  if (signature?.length !== 20 || !authToken) return false;
  return crypto.subtle.verify('HMAC', await hmacKey(authToken, 'verify'), signature, encoder.encode(signedText(url, params)));
}
