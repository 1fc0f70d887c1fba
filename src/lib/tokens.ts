import { jwtVerify, SignJWT } from 'jose';
import { toBase64Url } from './crypto/secret-box';

// Access tokens are short-lived HS256 JWTs; refresh tokens are opaque random strings stored only as hashes.
export interface AccessClaims {
  /** user id */
  sub: string;
  /** organisation id the token is valid for */
  org: number;
  /** session id, checked on every request so logout takes effect at once */
  sid: string;
}

function secretKey(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

/** Signs an access token valid for `ttlSeconds`. */
export async function signAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): Promise<string> {
  return new SignJWT({ org: claims.org, sid: claims.sid })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
    .sign(secretKey(secret));
}

/** Verifies signature and expiry; returns null for any invalid token. */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.org !== 'number' || typeof payload.sid !== 'string') return null;
    return { sub: payload.sub, org: payload.org, sid: payload.sid };
  } catch {
    return null;
  }
}

/** 32 random bytes, base64url: the refresh token handed to the client once. */
export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Hex SHA-256, used to store refresh tokens (and later API keys) without keeping the secret. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Compares two equal-length hex digests without stopping at the first difference. */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` random characters of [0-9A-Za-z] from the platform's CSPRNG, each equally likely (bytes past 247 are drawn again). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length))) {
      // 248 = 4 * 62: the bytes below it map evenly onto the alphabet.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
