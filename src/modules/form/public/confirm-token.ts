import { signCompact, verifyCompact } from '../../../lib/crypto/signed-token';
import { randomToken, sha256Hex } from '../../../lib/tokens';

// The confirmation link's token: signed, naming the organisation and the consent, with a random part so it cannot
// be made again; the consent keeps only its SHA-256 (consents.token_hash), cleared when it is used. The signature
// lets a second click on a used link say "already confirmed" (the hash is gone by then) without letting anyone
// learn that about a consent whose link they do not hold.

const PURPOSE = 'form-confirm';

export interface ConfirmRef {
  orgId: number;
  consentId: number;
}

/** A fresh token for the consent, and the hash to store. */
export async function makeConfirmToken(env: { SECRETS_KEY: string }, ref: ConfirmRef): Promise<{ token: string; hash: string }> {
  const token = await signCompact(env.SECRETS_KEY, PURPOSE, [ref.orgId.toString(36), ref.consentId.toString(36), randomToken(16)]);
  return { token, hash: await sha256Hex(token) };
}

/** What a token names, with its hash; null when it is malformed or not signed by us. */
export async function readConfirmToken(env: { SECRETS_KEY: string }, token: string | undefined | null): Promise<(ConfirmRef & { hash: string }) | null> {
  if (!token || token.length > 300) return null;
  const fields = await verifyCompact(env.SECRETS_KEY, PURPOSE, token, 3);
  const orgId = fields ? Number.parseInt(fields[0], 36) : Number.NaN;
  const consentId = fields ? Number.parseInt(fields[1], 36) : Number.NaN;
  if (!Number.isSafeInteger(orgId) || !Number.isSafeInteger(consentId) || orgId <= 0 || consentId <= 0) return null;
  return { orgId, consentId, hash: await sha256Hex(token) };
}
