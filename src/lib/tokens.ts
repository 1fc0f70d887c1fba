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
