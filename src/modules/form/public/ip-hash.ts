import { deriveKey, parseKeyRing } from '../../../lib/crypto/secret-box';

// The keyed hash of a visitor's IP address that consents keep instead of the address (the platform stores no raw
// IPs): HMAC-SHA-256 under a key derived from SECRETS_KEY's current entry, hex. It cannot be turned back into an
// address, and without the key no list of addresses can be hashed to find it; an organisation asked to prove a
// sign-up can have the platform hash an address a person claims and show it is (or is not) the one recorded. Rate
// limit keys use it too, so no raw address is written anywhere by the form endpoints.

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = deriveKey(secret, 'relay/consent-ip', { name: 'HMAC', hash: 'SHA-256' }, ['sign'])));
  return key;
}

/** The hex HMAC of `ip` (null when the request named none). */
export async function ipHash(env: { SECRETS_KEY: string }, ip: string | null): Promise<string | null> {
  if (!ip) return null;
  const [current] = parseKeyRing(env.SECRETS_KEY);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(current.secret), encoder.encode(ip)));
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** The visitor's address as Cloudflare gives it (CF-Connecting-IP); null when absent (a direct call in tests). */
export function clientIp(header: (name: string) => string | undefined): string | null {
  return header('cf-connecting-ip')?.trim() || null;
}
