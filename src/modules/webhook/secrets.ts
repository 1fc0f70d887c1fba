import type { Env } from '../../env';
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import { SECRET_PREFIX } from './sign';

// An endpoint's signing secret and its custom headers are kept sealed with SECRETS_KEY (AES-GCM, like integration
// secrets: src/lib/crypto/secret-box.ts); they are shown to the organisation but never stored in the clear.

/** A new signing secret: 'whsec_' and the base64 of 24 random bytes. */
export function newEndpointSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return SECRET_PREFIX + btoa(String.fromCharCode(...bytes));
}

export const sealEndpointSecret = (env: Pick<Env, 'SECRETS_KEY'>, secret: string): Promise<string> => encryptSecret(env.SECRETS_KEY, secret);
/**
 * Opened values by their sealed form, per isolate: every delivery signs (and sends the headers), and a sealed value
 * always opens to the same text, so a flight of 20 events derives the key and decrypts once, not 20 times.
 */
const opened = new Map<string, Promise<string>>();
const OPENED_KEPT = 200;

function openSealed(env: Pick<Env, 'SECRETS_KEY'>, sealed: string): Promise<string> {
  let plain = opened.get(sealed);
  if (!plain) {
    if (opened.size >= OPENED_KEPT) opened.clear();
    plain = decryptSecret(env.SECRETS_KEY, sealed);
    opened.set(sealed, plain);
    plain.catch(() => opened.delete(sealed));
  }
  return plain;
}

export const openEndpointSecret = (env: Pick<Env, 'SECRETS_KEY'>, sealed: string): Promise<string> => openSealed(env, sealed);

/** Seals custom headers (JSON object) for webhook_endpoints.headers; null when there are none. */
export async function sealEndpointHeaders(env: Pick<Env, 'SECRETS_KEY'>, headers: Record<string, string> | null | undefined): Promise<string | null> {
  if (!headers || Object.keys(headers).length === 0) return null;
  return encryptSecret(env.SECRETS_KEY, JSON.stringify(headers));
}

export async function openEndpointHeaders(env: Pick<Env, 'SECRETS_KEY'>, sealed: string | null): Promise<Record<string, string>> {
  if (!sealed) return {};
  return JSON.parse(await openSealed(env, sealed)) as Record<string, string>;
}
