import { signCompact, verifyCompact } from '../crypto/signed-token';
import { orgOrigin } from '../org-url';
import { fromBase36 } from './unsubscribe-link';

// The contact-scoped link to the preferences page (issue 39): https://{org}.{host}/unsubscribe?p=<signed token>,
// mailed on request from the "send me my link" page. Unlike a message's unsubscribe token (which names a message and
// never expires, as a mail in an inbox must keep working) it names only the organisation and the contact, and ends
// after PREFERENCES_LINK_DAYS: a forwarded link stops working. Compact: `<org>.<contact>.<expiry>.<key id>.<tag>`,
// ids and the expiry (epoch seconds) in base 36.

const PURPOSE = 'preferences';
export const PREFERENCES_LINK_DAYS = 7;

export interface PreferencesRef {
  orgId: number;
  contactId: number;
}

/** A token for `ref`, valid PREFERENCES_LINK_DAYS from `now`. */
export async function preferencesToken(env: { SECRETS_KEY: string }, ref: PreferencesRef, now = Date.now()): Promise<string> {
  const expiry = Math.floor(now / 1000) + PREFERENCES_LINK_DAYS * 86_400;
  return signCompact(
    env.SECRETS_KEY,
    PURPOSE,
    [ref.orgId, ref.contactId, expiry].map((n) => n.toString(36)),
  );
}

/** The preferences URL carrying a fresh token, on the organisation's own host. */
export async function preferencesUrl(
  env: { SECRETS_KEY: string; PUBLIC_URL: string },
  orgDomain: string,
  ref: PreferencesRef,
  now = Date.now(),
): Promise<string> {
  return `${orgOrigin(env, orgDomain)}/unsubscribe?p=${await preferencesToken(env, ref, now)}`;
}

/** What a token names; null when it is malformed, not signed by us, or expired. */
export async function readPreferencesToken(env: { SECRETS_KEY: string }, token: string, now = Date.now()): Promise<PreferencesRef | null> {
  const fields = await verifyCompact(env.SECRETS_KEY, PURPOSE, token, 3);
  const orgId = fromBase36(fields?.[0]);
  const contactId = fromBase36(fields?.[1]);
  const expiry = fromBase36(fields?.[2]);
  if (!orgId || !contactId || !expiry || expiry * 1000 <= now) return null;
  return { orgId, contactId };
}
