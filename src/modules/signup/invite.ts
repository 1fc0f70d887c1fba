import type { Env } from '../../env';
import { signToken, verifyToken } from '../../lib/crypto/signed-token';

// The invitation an approved pre-registration gets: a signed token (SECRETS_KEY, purpose 'invite') carrying
// the invited email and an expiry, so no storage is needed. It lets that email sign up while registration
// is paused.

/** How long an invitation stays valid. */
export const INVITE_TTL_DAYS = 14;

/** Signs an invitation for one email address. */
export function signInvite(env: Pick<Env, 'SECRETS_KEY'>, email: string, now = Date.now()): Promise<string> {
  return signToken(env.SECRETS_KEY, 'invite', { email: email.trim().toLowerCase(), exp: now + INVITE_TTL_DAYS * 86_400_000 });
}

/** The invited email of a genuine, unexpired invitation; null for anything else. */
export async function invitedEmail(env: Pick<Env, 'SECRETS_KEY'>, invite: string, now = Date.now()): Promise<string | null> {
  const payload = await verifyToken(env.SECRETS_KEY, 'invite', invite);
  if (!payload || typeof payload.email !== 'string' || typeof payload.exp !== 'number' || payload.exp < now) return null;
  return payload.email;
}
