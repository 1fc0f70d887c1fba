// A sender's standing with the organisation's sending domains: the one rule the sender list, the broadcast form and
// the test-message form share (src/shared/contracts/domain.ts SENDER_DOMAIN_STATES).
import type { SenderDomainState } from '../../shared/contracts/domain';
import { isSameOrUnder } from './name';

/** What the rule needs of a domain row: its name and whether it was proved (verified_at) and is broken now. */
export interface DomainStanding {
  domain: string;
  verifiedAt: string | null;
  brokenSince: string | null;
}

/** The domain part of an email address, lower case ('' when there is none). */
export const addressDomain = (address: string) =>
  address
    .slice(address.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();

/**
 * `unknown` for SMS senders; otherwise the most specific of the organisation's proved domains the address is on (its
 * own domain or one above it) decides: `verified`, or `broken` while a needed record is broken; none: `unverified`.
 */
export function senderDomainState(sender: { type: string; value: string }, domains: readonly DomainStanding[]): SenderDomainState {
  if (sender.type !== 'email') return 'unknown';
  const host = addressDomain(sender.value);
  const proved = domains.filter((d) => d.verifiedAt !== null && isSameOrUnder(host, d.domain)).sort((a, b) => b.domain.length - a.domain.length)[0];
  if (!proved) return 'unverified';
  return proved.brokenSince ? 'broken' : 'verified';
}
