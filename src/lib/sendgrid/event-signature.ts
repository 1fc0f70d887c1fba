// SendGrid's signed Event Webhook: an ECDSA P-256 / SHA-256 signature over the timestamp header's value followed by
// the raw body, sent base64 (DER-encoded) in X-Twilio-Email-Event-Webhook-Signature; the account's verification key
// is the base64 DER (SubjectPublicKeyInfo) public key SendGrid shows under Mail Settings. WebCrypto verifies the
// IEEE P1363 form (r and s, 32 bytes each), so the DER signature is unwrapped first.

export const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

const encoder = new TextEncoder();
const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { name: 'ECDSA', hash: 'SHA-256' } as const;

export function base64Bytes(value: string): Uint8Array | null {
  try {
    return Uint8Array.from(atob(value.replace(/\s+/g, '')), (ch) => ch.charCodeAt(0));
  } catch {
    return null;
  }
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** r || s (32 bytes each) from a DER `SEQUENCE { INTEGER r, INTEGER s }`; null when it is not one. */
export function derToP1363(der: Uint8Array): Uint8Array | null {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const out = new Uint8Array(64);
  let at = 2;
  for (const half of [0, 1]) {
    if (der[at] !== 0x02) return null;
    const length = der[at + 1];
    let value = der.subarray(at + 2, at + 2 + length);
    if (value.length !== length || length === 0) return null;
    while (value.length > 32 && value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return null;
    out.set(value, half * 32 + 32 - value.length);
    at += 2 + length;
  }
  return at === der.length ? out : null;
}

/** The DER form of an r || s signature (what SendGrid sends; the local stand-in and tests sign with it). */
export function p1363ToDer(raw: Uint8Array): Uint8Array {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    const body = trimmed[0] & 0x80 ? Uint8Array.of(0, ...trimmed) : trimmed;
    return Uint8Array.of(0x02, body.length, ...body);
  };
  const r = integer(raw.subarray(0, 32));
  const s = integer(raw.subarray(32, 64));
  return Uint8Array.of(0x30, r.length + s.length, ...r, ...s);
}

/** Whether `signature` (base64 DER) signs timestamp + body under `verificationKey` (base64 DER public key). */
export async function validSendGridSignature(
  verificationKey: string,
  body: string,
  signature: string | undefined,
  timestamp: string | undefined,
): Promise<boolean> {
  if (!signature || !timestamp) return false;
  const keyBytes = base64Bytes(verificationKey);
  const der = base64Bytes(signature);
  const raw = der && derToP1363(der);
  if (!keyBytes || !raw) return false;
  try {
    const key = await crypto.subtle.importKey('spki', keyBytes, ALGORITHM, false, ['verify']);
    return await crypto.subtle.verify(SIGNING, key, raw, encoder.encode(timestamp + body));
  } catch {
    // Not a P-256 public key: it verifies nothing.
    return false;
  }
}

/** A key pair as SendGrid would hold it: the verification key (base64 SPKI) and a signer. For tests and the local stand-in. */
export async function sendGridKeyPair(): Promise<{ verificationKey: string; sign(body: string, timestamp: string): Promise<string> }> {
  const pair = (await crypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const spki = new Uint8Array((await crypto.subtle.exportKey('spki', pair.publicKey)) as ArrayBuffer);
  return {
    verificationKey: base64(spki),
    async sign(body, timestamp) {
      const raw = new Uint8Array(await crypto.subtle.sign(SIGNING, pair.privateKey, encoder.encode(timestamp + body)));
      return base64(p1363ToDer(raw));
    },
  };
}
