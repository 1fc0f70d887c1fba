// Standard Webhooks signatures (standardwebhooks.com): `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed
// with the secret's bytes (the base64 after 'whsec_'); several space-separated while a rotated secret still signs.

const encoder = new TextEncoder();
export const SECRET_PREFIX = 'whsec_';

/** The key bytes of a 'whsec_' secret. */
export function secretBytes(secret: string): Uint8Array {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** HMAC keys by secret, imported once per isolate (at most KEYS_KEPT: emptied when full). */
const keys = new Map<string, Promise<CryptoKey>>();
const KEYS_KEPT = 100;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= KEYS_KEPT) keys.clear();
    key = crypto.subtle.importKey('raw', secretBytes(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keys.set(secret, key);
    key.catch(() => keys.delete(secret));
  }
  return key;
}

/** One `v1,` signature of the payload with one secret. */
export async function signature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  const key = await hmacKey(secret);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The three signing headers; `timestamp` in Unix seconds; `secrets` the current first, then a rotated one if it still signs. */
export async function signatureHeaders(secrets: string[], id: string, timestamp: number, body: string): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((secret) => signature(secret, id, timestamp, body)));
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') };
}
