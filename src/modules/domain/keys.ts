// A sending domain's DKIM keys: RSA-2048 made in the worker (src/lib/dkim/keys.ts), the private key stored sealed
// with SECRETS_KEY like integration secrets (src/lib/crypto/secret-box.ts), and the selector it is published under.
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import { generateDkimKeyPair } from '../../lib/dkim/keys';

export { nextSelector } from './selector';

export interface SealedDkimKey {
  selector: string;
  /** base64 SPKI: the record's p= */
  publicKey: string;
  /** The PKCS#8 PEM sealed with the current SECRETS_KEY entry. */
  sealedPrivateKey: string;
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
