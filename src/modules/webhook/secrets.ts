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
export const openEndpointSecret = (env: Pick<Env, 'SECRETS_KEY'>, sealed: string): Promise<string> => decryptSecret(env.SECRETS_KEY, sealed);

/** Seals custom headers (JSON object) for webhook_endpoints.headers; null when there are none. */
export async function sealEndpointHeaders(env: Pick<Env, 'SECRETS_KEY'>, headers: Record<string, string> | null | undefined): Promise<string | null> {
  if (!headers || Object.keys(headers).length === 0) return null;
  return encryptSecret(env.SECRETS_KEY, JSON.stringify(headers));
}

export async function openEndpointHeaders(env: Pick<Env, 'SECRETS_KEY'>, sealed: string | null): Promise<Record<string, string>> {
  if (!sealed) return {};
  return JSON.parse(await decryptSecret(env.SECRETS_KEY, sealed)) as Record<string, string>;
}
