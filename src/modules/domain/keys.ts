// A sending domain's DKIM keys: RSA-2048 made in the worker (src/lib/dkim/keys.ts), the private key stored sealed
// with SECRETS_KEY like integration secrets (src/lib/crypto/secret-box.ts), and the selector it is published under.
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import { generateDkimKeyPair } from '../../lib/dkim/keys';

export interface SealedDkimKey {
  selector: string;
  /** base64 SPKI: the record's p= */
  publicKey: string;
  /** The PKCS#8 PEM sealed with the current SECRETS_KEY entry. */
  sealedPrivateKey: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * `relay<yyyymm><letter>`: the month a key was made, so a person reading DNS sees its age, and a letter so another
 * key of the same month gets a name of its own: the first letter after the current selector's (a rotation) that no
 * other row of the same name uses (organisations that add the same domain never share a DKIM record name).
 */
export function nextSelector(now: Date, current: string | null, used: readonly string[] = []): string {
  const month = `relay${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const start = current?.startsWith(month) ? LETTERS.indexOf(current.slice(month.length)) + 1 : 0;
  const taken = new Set([...used, ...(current ? [current] : [])]);
  for (let step = 0; step < LETTERS.length; step++) {
    const candidate = `${month}${LETTERS[(start + step) % LETTERS.length]}`;
    if (!taken.has(candidate)) return candidate;
  }
  // Twenty-six keys for one name in one month: share a letter rather than refuse (the p= still tells keys apart).
  return `${month}${LETTERS[start % LETTERS.length]}`;
}

/** Makes a new key pair under a new selector, the private key sealed. */
export async function newDkimKey(env: { SECRETS_KEY: string }, selector: string): Promise<SealedDkimKey> {
  const pair = await generateDkimKeyPair();
  return { selector, publicKey: pair.publicKeyBase64, sealedPrivateKey: await encryptSecret(env.SECRETS_KEY, pair.privateKeyPem) };
}

/** Opens a sealed private key: the PKCS#8 PEM that importDkimKey takes. */
export function openDkimKey(env: { SECRETS_KEY: string }, sealed: string): Promise<string> {
  return decryptSecret(env.SECRETS_KEY, sealed);
}
