import { signHex, verifyHex } from '../../lib/crypto/signed-token';
import { fromBase36 } from '../../lib/templating/unsubscribe-link';

// The return path of a message (VERP): `b-<organisation>-<message>-<tag>@<BOUNCE_DOMAIN>`, ids in base 36 and an
// 80-bit hex signature, all lower case (a mail server may lower-case a local part). A bounce or a feedback report
// comes back to it, and the address alone says whose message it was: a forged or foreign one names nothing.

const PURPOSE = 'bounce';

export interface BounceRef {
  orgId: number;
  messageId: number;
}

/** The bounce domain when the operator set one (BOUNCE_DOMAIN), else null: messages keep their integration's return path. */
export function bounceDomainOf(env: { BOUNCE_DOMAIN?: string }): string | null {
  const domain = env.BOUNCE_DOMAIN?.trim().toLowerCase();
  return domain && /^[a-z0-9.-]+\.[a-z]{2,}$/.test(domain) ? domain : null;
}

/** A message's bounce address on `domain`. */
export async function bounceAddress(env: { SECRETS_KEY: string }, domain: string, ref: BounceRef): Promise<string> {
  const body = `${ref.orgId.toString(36)}-${ref.messageId.toString(36)}`;
  return `b-${body}-${await signHex(env.SECRETS_KEY, PURPOSE, body)}@${domain}`;
}

/** The message a bounce address names, or null when it is not one of ours (malformed, forged, another domain). */
export async function readBounceAddress(env: { SECRETS_KEY: string; BOUNCE_DOMAIN?: string }, address: string): Promise<BounceRef | null> {
  const domain = bounceDomainOf(env);
  const match = /^b-([0-9a-z]{1,11})-([0-9a-z]{1,11})-([0-9a-f]{20})@(.+)$/.exec(address.trim().toLowerCase());
  if (!match || !domain || match[4] !== domain) return null;
  const [, org, message, given] = match;
  if (!(await verifyHex(env.SECRETS_KEY, PURPOSE, `${org}-${message}`, given))) return null;
  const orgId = fromBase36(org);
  const messageId = fromBase36(message);
  return orgId && messageId ? { orgId, messageId } : null;
}
