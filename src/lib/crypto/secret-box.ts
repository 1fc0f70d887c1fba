// Secrets at rest (integration passwords and tokens): AES-256-GCM through WebCrypto, a random 96-bit IV per
// value, and the id of the key in front so keys can rotate. The key ring comes from the environment secret
// SECRETS_KEY: comma-separated entries `<id>:<secret>` (the first one encrypts, every one decrypts), each
// secret at least 32 characters of random text; the AES key is derived from it with HKDF-SHA256.
// This file imports nothing relative so Node can load it directly (the local seed script encrypts with it).

const VERSION = 'v1';
const KEY_ID = /^[A-Za-z0-9_-]{1,16}$/;
const encoder = new TextEncoder();

export interface KeyEntry {
  id: string;
  secret: string;
}

let lastRing: { text: string | undefined; entries: readonly KeyEntry[] } | null = null;

/** Parses SECRETS_KEY into its entries, first = current; a bare secret (no `id:`) gets the id `k0`. */
export function parseKeyRing(text: string | undefined): readonly KeyEntry[] {
  // Read on every signed link and tracking hit; the variable never changes within an isolate.
  if (lastRing && lastRing.text === text) return lastRing.entries;
  const entries = (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      const id = colon > 0 ? part.slice(0, colon) : '';
      return KEY_ID.test(id) ? { id, secret: part.slice(colon + 1) } : { id: 'k0', secret: part };
    });
  if (entries.length === 0 || entries.some((e) => e.secret.length < 32)) {
    throw new Error(
      'SECRETS_KEY must be set to `<id>:<secret>` entries with secrets of at least 32 characters (wrangler secret put SECRETS_KEY, or .dev.vars locally)',
    );
  }
  lastRing = { text, entries };
  return entries;
}

/** Derives a purpose-bound key from a key-ring secret (HKDF-SHA256), so one secret serves several uses safely. */
export async function deriveKey(
  secret: string,
  purpose: string,
  algorithm: { name: 'AES-GCM'; length: number } | { name: 'HMAC'; hash: string },
  usages: ('encrypt' | 'decrypt' | 'sign' | 'verify')[],
) {
  const base = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  const derived = algorithm.name === 'HMAC' ? { ...algorithm, length: 256 } : algorithm;
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: encoder.encode(purpose) }, base, derived, false, usages);
}

const aesKey = (secret: string, usage: 'encrypt' | 'decrypt') => deriveKey(secret, 'relay/secret-box', { name: 'AES-GCM', length: 256 }, [usage]);

/** base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url; throws on anything else. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  // A plain loop: Uint8Array.from with a mapping function is several times slower, and every tracking hit and
  // signed link goes through here.
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encrypts a secret with the current key: `v1.<key id>.<iv>.<ciphertext+tag>`. */
export async function encryptSecret(keyRing: string | undefined, plaintext: string): Promise<string> {
  const [current] = parseKeyRing(keyRing);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesKey(current.secret, 'encrypt'), encoder.encode(plaintext));
  return [VERSION, current.id, toBase64Url(iv), toBase64Url(new Uint8Array(sealed))].join('.');
}

/** Decrypts a value from encryptSecret with the key its prefix names; throws when the key is gone or the value was altered. */
export async function decryptSecret(keyRing: string | undefined, value: string): Promise<string> {
  const [version, keyId, iv, sealed] = value.split('.');
  if (version !== VERSION || !keyId || !iv || !sealed) throw new Error('secret has an unknown format');
  const entry = parseKeyRing(keyRing).find((e) => e.id === keyId);
  if (!entry) throw new Error(`secret was encrypted with key "${keyId}", which SECRETS_KEY no longer holds`);
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64Url(iv) }, await aesKey(entry.secret, 'decrypt'), fromBase64Url(sealed));
  return new TextDecoder().decode(plain);
}

/** True when a value was encrypted with a key other than the current one (re-encrypt it on the next write). */
export function needsRotation(keyRing: string | undefined, value: string): boolean {
  return value.split('.')[1] !== parseKeyRing(keyRing)[0].id;
}
