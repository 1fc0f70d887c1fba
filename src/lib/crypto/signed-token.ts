import { deriveKey, fromBase64Url, parseKeyRing, toBase64Url } from './secret-box';

// Short signed tokens for links in messages (the unsubscribe link): `<payload>.<signature>`, both base64url,
// the payload JSON carrying the id of the SECRETS_KEY entry that signed it so links keep working after a
// key rotation (as long as the old entry stays in the ring). HMAC-SHA256 with a key derived per purpose.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Derived keys by purpose and secret: a broadcast signs a link per recipient, and deriving the key (HKDF) costs
// more than the signature itself. Only derived CryptoKeys are kept, never the secrets' text beyond the map key.
const derived = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string, purpose: string): Promise<CryptoKey> {
  const id = `${purpose}\u0000${secret}`;
  let key = derived.get(id);
  if (!key) {
    if (derived.size > 32) derived.clear();
    key = deriveKey(secret, `relay/signed-token/${purpose}`, { name: 'HMAC', hash: 'SHA-256' }, ['sign', 'verify']);
    derived.set(id, key);
    key.catch(() => derived.delete(id));
  }
  return key;
}

/** Signs a small JSON payload for one purpose (e.g. 'unsubscribe'). */
export async function signToken(keyRing: string | undefined, purpose: string, payload: Record<string, unknown>): Promise<string> {
  const [current] = parseKeyRing(keyRing);
  const body = toBase64Url(encoder.encode(JSON.stringify({ ...payload, k: current.id })));
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(current.secret, purpose), encoder.encode(body));
  return `${body}.${toBase64Url(new Uint8Array(signature))}`;
}

/** Verifies a token of that purpose and returns its payload, or null when it is malformed, forged or its key is gone. */
export async function verifyToken(keyRing: string | undefined, purpose: string, token: string): Promise<Record<string, unknown> | null> {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return null;
  try {
    const payload: unknown = JSON.parse(decoder.decode(fromBase64Url(body)));
    if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
    const entry = parseKeyRing(keyRing).find((e) => e.id === (payload as { k?: unknown }).k);
    if (!entry) return null;
    const ok = await crypto.subtle.verify('HMAC', await hmacKey(entry.secret, purpose), fromBase64Url(signature), encoder.encode(body));
    return ok ? (payload as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// Compact tokens, for what a message repeats in every link (its message token, a broadcast's link tokens):
// `<field>.<field>...<key id>.<signature>`, plain fields free of '.', and the HMAC-SHA256 truncated to its first 128
// bits (a standard tag length). A tracked newsletter carries 80 of them per message, so each character counts.
const TAG_BYTES = 16;

function compactBody(fields: readonly string[], keyId: string): string {
  if (fields.some((f) => f.includes('.'))) throw new Error('a compact token field may not contain "."');
  return `${fields.join('.')}.${keyId}`;
}

async function tag(secret: string, purpose: string, body: string): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign('HMAC', await hmacKey(secret, purpose), encoder.encode(body));
  return new Uint8Array(mac, 0, TAG_BYTES);
}

/** Signs `fields` for one purpose as a compact token. */
export async function signCompact(keyRing: string | undefined, purpose: string, fields: readonly string[]): Promise<string> {
  const [current] = parseKeyRing(keyRing);
  const body = compactBody(fields, current.id);
  return `${body}.${toBase64Url(await tag(current.secret, purpose, body))}`;
}

/** The fields of a compact token of that purpose with `count` fields, or null when it is malformed, forged or its key is gone. */
export async function verifyCompact(keyRing: string | undefined, purpose: string, token: string, count: number): Promise<string[] | null> {
  const parts = token.split('.');
  if (parts.length !== count + 2) return null;
  const entry = parseKeyRing(keyRing).find((e) => e.id === parts[count]);
  if (!entry) return null;
  let given: Uint8Array;
  try {
    given = fromBase64Url(parts[count + 1]);
  } catch {
    return null;
  }
  if (given.length !== TAG_BYTES) return null;
  const expected = await tag(entry.secret, purpose, parts.slice(0, count + 1).join('.'));
  // Compared in full whatever differs first.
  let diff = 0;
  for (let i = 0; i < TAG_BYTES; i++) diff |= given[i] ^ expected[i];
  return diff === 0 ? parts.slice(0, count) : null;
}

// Lower-case tokens, for where case may not survive: an email address's local part (a bounce address, which some
// mail servers lower-case). The tag is hex, the HMAC-SHA256 truncated to 80 bits, signed with the ring's current
// key and checked against every key of the ring (a ring holds a few).
const HEX_TAG_BYTES = 10;
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');

/** The hex tag of `body` for one purpose, with the ring's current key. */
export async function signHex(keyRing: string | undefined, purpose: string, body: string): Promise<string> {
  const [current] = parseKeyRing(keyRing);
  return hex((await tag(current.secret, purpose, body)).slice(0, HEX_TAG_BYTES));
}

/** Whether `given` is the hex tag of `body` for that purpose under any key of the ring. */
export async function verifyHex(keyRing: string | undefined, purpose: string, body: string, given: string): Promise<boolean> {
  if (!/^[0-9a-f]+$/.test(given) || given.length !== HEX_TAG_BYTES * 2) return false;
  let found = false;
  for (const entry of parseKeyRing(keyRing)) {
    const expected = hex((await tag(entry.secret, purpose, body)).slice(0, HEX_TAG_BYTES));
    let diff = 0;
    for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ given.charCodeAt(i);
    if (diff === 0) found = true;
  }
  return found;
}
