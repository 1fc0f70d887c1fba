// DKIM keys: RSA-2048 made with WebCrypto, the private key imported for signing (once per batch: importing parses
// the key, which costs more than a signature). Its DNS record is rendered by src/lib/dns/records-to-publish.ts.
import { fromBase64, toBase64 } from './binary';

const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
/** RFC 8301 3.2: verifiers must not accept RSA keys shorter than 1024 bits; 2048 is what we make. */
const MIN_BITS = 1024;
const KEY_BITS = 2048;

const PKCS8_PEM = /-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\s]+)-----END PRIVATE KEY-----/;

export interface DkimKeyPair {
  /** The private key, PKCS#8 DER (what importDkimKey takes). */
  privateKeyPkcs8: Uint8Array;
  /** The same as PEM text, for storing sealed as a string. */
  privateKeyPem: string;
  /** The public key, base64 of its SubjectPublicKeyInfo: the p= of the DNS record. */
  publicKeyBase64: string;
}

/** Makes a new RSA-2048 key pair for DKIM. */
export async function generateDkimKeyPair(): Promise<DkimKeyPair> {
  const pair = (await crypto.subtle.generateKey({ ...ALGORITHM, modulusLength: KEY_BITS, publicExponent: new Uint8Array([1, 0, 1]) }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const privateKeyPkcs8 = new Uint8Array((await crypto.subtle.exportKey('pkcs8', pair.privateKey)) as ArrayBuffer);
  const spki = new Uint8Array((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  return { privateKeyPkcs8, privateKeyPem: pkcs8Pem(privateKeyPkcs8), publicKeyBase64: toBase64(spki) };
}

/**
 * Imports a private key for signing: PKCS#8 as PEM text ("BEGIN PRIVATE KEY") or DER bytes. Throws when it is not
 * an RSA key of at least 1024 bits. The key is not extractable.
 */
export async function importDkimKey(privateKey: string | Uint8Array | ArrayBuffer): Promise<CryptoKey> {
  let der: Uint8Array | ArrayBuffer;
  if (typeof privateKey === 'string') {
    if (privateKey.includes('BEGIN RSA PRIVATE KEY')) {
      throw new Error('The DKIM key is PKCS#1 ("BEGIN RSA PRIVATE KEY"); convert it to PKCS#8 (openssl pkcs8 -topk8 -nocrypt).');
    }
    const body = PKCS8_PEM.exec(privateKey)?.[1];
    if (!body) throw new Error('The DKIM key is not a PKCS#8 PEM private key ("BEGIN PRIVATE KEY").');
    der = fromBase64(body.replace(/\s+/g, ''));
  } else {
    der = privateKey;
  }
  const key = await crypto.subtle.importKey('pkcs8', der, ALGORITHM, false, ['sign']);
  const bits = (key.algorithm as { modulusLength: number }).modulusLength;
  if (bits < MIN_BITS) throw new Error(`The DKIM key has ${bits} bits; receivers need at least ${MIN_BITS}.`);
  return key;
}

function pkcs8Pem(der: Uint8Array): string {
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`;
}
