import { signToken, verifyToken } from '../crypto/signed-token';
import { orgOrigin } from '../org-url';

// The personal unsubscribe link in messages: https://{org}.{host}/unsubscribe?m=<signed token>. The token
// names the organisation and, when known, the contact and the message, signed with a key derived from
// SECRETS_KEY; the public page and the one-click POST (src/modules/unsubscribe) verify it with readUnsubscribeToken.

const PURPOSE = 'unsubscribe';

export interface UnsubscribeRef {
  orgId: number;
  contactId: number | null;
  messageId: number | null;
}

/** The unsubscribe URL for a contact and/or message of an organisation, on the organisation's own host. */
export async function unsubscribeUrl(env: { SECRETS_KEY: string; PUBLIC_URL: string }, orgDomain: string, ref: UnsubscribeRef): Promise<string> {
  const payload: Record<string, unknown> = { o: ref.orgId };
  if (ref.contactId) payload.c = ref.contactId;
  if (ref.messageId) payload.m = ref.messageId;
  const token = await signToken(env.SECRETS_KEY, PURPOSE, payload);
  return `${orgOrigin(env, orgDomain)}/unsubscribe?m=${token}`;
}

/** Reads a token from an unsubscribe URL; null when it is malformed or not signed by us. */
export async function readUnsubscribeToken(env: { SECRETS_KEY: string }, token: string): Promise<UnsubscribeRef | null> {
  const payload = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (!payload || typeof payload.o !== 'number') return null;
  const id = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);
  return { orgId: payload.o, contactId: id(payload.c), messageId: id(payload.m) };
}
