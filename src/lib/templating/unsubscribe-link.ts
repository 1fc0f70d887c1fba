import { signCompact, verifyCompact, verifyToken } from '../crypto/signed-token';
import { orgOrigin } from '../org-url';

// The personal unsubscribe link in messages: https://{org}.{host}/unsubscribe?m=<signed token>. The token
// names the organisation and, when known, the contact, the message and its broadcast, signed with a key derived
// from SECRETS_KEY; the public page and the one-click POST (src/modules/unsubscribe) verify it with
// readUnsubscribeToken. A sent message's token is also the key to its tracking links (src/modules/tracking):
// one signature per message serves the unsubscribe link, the pixel and every click, so it is a compact token
// (`<org>.<contact>.<message>.<broadcast>.<key id>.<tag>`, ids in base 36, 0 for none). Links signed before Nov
// 2026 carry a JSON token (`<payload>.<signature>`) and are still read. The purpose keeps its first name.

const PURPOSE = 'unsubscribe';

export interface UnsubscribeRef {
  orgId: number;
  contactId: number | null;
  messageId: number | null;
  /** The broadcast the message belongs to (tokens signed before Nov 2026 do not say). */
  broadcastId?: number | null;
}

/** The signed token of a message (or of a contact, for a preview): the one signature a message costs. */
export async function messageToken(env: { SECRETS_KEY: string }, ref: UnsubscribeRef): Promise<string> {
  return signCompact(env.SECRETS_KEY, PURPOSE, [ref.orgId, ref.contactId, ref.messageId, ref.broadcastId].map(base36));
}

const base36 = (id: number | null | undefined) => (id && id > 0 ? id.toString(36) : '0');
/** A positive id from base 36 text, or null (0, malformed, too large). */
export function fromBase36(text: string | undefined): number | null {
  if (!text || !/^[0-9a-z]{1,11}$/.test(text)) return null;
  const n = parseInt(text, 36);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The unsubscribe URL that carries `token`, on the organisation's origin. */
export function unsubscribeUrlOf(origin: string, token: string): string {
  return `${origin}/unsubscribe?m=${token}`;
}

/** The unsubscribe URL for a contact and/or message of an organisation, on the organisation's own host. */
export async function unsubscribeUrl(env: { SECRETS_KEY: string; PUBLIC_URL: string }, orgDomain: string, ref: UnsubscribeRef): Promise<string> {
  return unsubscribeUrlOf(orgOrigin(env, orgDomain), await messageToken(env, ref));
}

/** Reads a token from an unsubscribe URL; null when it is malformed or not signed by us. */
export async function readUnsubscribeToken(env: { SECRETS_KEY: string }, token: string): Promise<UnsubscribeRef | null> {
  if (token.split('.').length === 2) return readJsonToken(env, token);
  const fields = await verifyCompact(env.SECRETS_KEY, PURPOSE, token, 4);
  const orgId = fromBase36(fields?.[0]);
  if (!fields || !orgId) return null;
  return { orgId, contactId: fromBase36(fields[1]), messageId: fromBase36(fields[2]), broadcastId: fromBase36(fields[3]) };
}

/** A token of the first form (JSON payload), as links sent before Nov 2026 carry. */
async function readJsonToken(env: { SECRETS_KEY: string }, token: string): Promise<UnsubscribeRef | null> {
  const payload = await verifyToken(env.SECRETS_KEY, PURPOSE, token);
  if (!payload || typeof payload.o !== 'number') return null;
  const id = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : null);
  return { orgId: payload.o, contactId: id(payload.c), messageId: id(payload.m), broadcastId: id(payload.b) };
}
