import { deriveKey, parseKeyRing } from '../../lib/crypto/secret-box';
import { normalizeAddress, type AddressType } from '../../shared/address';

// The keyed hash of an address that stands for it where the address itself must not stay: the "do not re-add" list
// of erased addresses (D1) and the archive index from a recipient to the archive objects holding their mail (the
// ledger). HMAC-SHA-256 under a key derived from SECRETS_KEY, over the organisation and the normalised address, so
// the same address has different digests in two organisations and nobody without the key can hash a list of
// addresses to find one. The type is not part of it: a message's recipient is a bare address, and an email and a
// phone number never look alike.
//
// Digests are written under the key ring's current entry and looked up under every entry, so rotating SECRETS_KEY
// keeps old digests findable while the old entry stays in the ring.

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = deriveKey(secret, 'relay/address-digest', { name: 'HMAC', hash: 'SHA-256' }, ['sign'])));
  return key;
}

/** 128 bits of the HMAC, hex: short enough for index rows, far beyond any organisation's number of addresses. */
async function digestUnder(secret: string, orgId: number, address: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await keyOf(secret), encoder.encode(`${orgId}\n${address}`)));
  return [...mac.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A recipient address as messages keep it, reduced to what identifies it (trimmed; an email lowercased). */
export const recipientKey = (address: string) => (address.includes('@') ? normalizeAddress('email', address) : normalizeAddress('phone', address));

/** The digest an address is written under now. */
export function addressDigest(env: { SECRETS_KEY: string }, orgId: number, address: string): Promise<string> {
  return digestUnder(parseKeyRing(env.SECRETS_KEY)[0].secret, orgId, recipientKey(address));
}

/** Every digest the address may have been written under (one per entry of the key ring), for lookups. */
export function addressDigests(env: { SECRETS_KEY: string }, orgId: number, address: string): Promise<string[]> {
  return Promise.all(parseKeyRing(env.SECRETS_KEY).map((entry) => digestUnder(entry.secret, orgId, recipientKey(address))));
}

/** The digests of a contact's addresses under every key, for lookups. */
export async function contactAddressDigests(env: { SECRETS_KEY: string }, orgId: number, addresses: { type: AddressType; value: string }[]) {
  return (await Promise.all(addresses.map((a) => addressDigests(env, orgId, a.value)))).flat();
}
