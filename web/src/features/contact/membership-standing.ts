import type { Consent, ContactMemberships, MemberSource } from '@shared/contracts/membership';

// What the contact's Subscriptions card works out from GET /contact/{id}/memberships and the organisation's
// subscriptions: each subscription's standing in words, and whether the contact is held (reached by nothing).

/**
 * A standing as the card shows it: 'implied' is a member the organisation added (no row says otherwise), 'none' a
 * subscription a form sign-up never joined.
 */
export type Standing = 'confirmed' | 'implied' | 'pending' | 'unsubscribed' | 'none';

export interface SubscriptionStanding {
  id: number;
  name: string;
  standing: Standing;
  /** How it came to be (null for 'implied' and 'none': no row). */
  source: MemberSource | null;
  changedAt: string | null;
  /** When a pending sign-up is removed unless confirmed. */
  pendingUntil: string | null;
  /** Unsubscribed by the person (or from before memberships): adding them back needs their consent. */
  leftByPerson: boolean;
}

const ORGANISATION_SOURCES: ReadonlySet<MemberSource> = new Set(['import', 'console', 'api']);

/** Whether the contact receives broadcasts of the subscription (the card's switch). */
export const receives = (standing: Standing) => standing === 'confirmed' || standing === 'implied';

/** The unconfirmed sign-up that holds a pending membership: its own consent, else the latest one naming the subscription. */
function pendingConsent(consents: Consent[], subscriptionId: number, consentId: number | null): Consent | undefined {
  return (
    consents.find((consent) => consent.id === consentId && !consent.confirmed_at) ??
    consents.find((consent) => !consent.confirmed_at && consent.subscription_ids.includes(subscriptionId))
  );
}

/** Every subscription of the organisation (in its order) with the contact's standing in it. */
export function subscriptionStandings(subscriptions: { id: number; name: string }[], data: ContactMemberships): SubscriptionStanding[] {
  const byId = new Map(data.memberships.map((membership) => [membership.subscription_id, membership]));
  // A membership of a subscription the list has not caught up with yet is still shown, last.
  const listed = new Set(subscriptions.map((subscription) => subscription.id));
  const all = [
    ...subscriptions,
    ...data.memberships.filter((m) => !listed.has(m.subscription_id)).map((m) => ({ id: m.subscription_id, name: m.subscription_name })),
  ];
  return all.map(({ id, name }) => {
    const membership = byId.get(id);
    if (!membership) return { id, name, standing: 'none', source: null, changedAt: null, pendingUntil: null, leftByPerson: false };
    const implied = membership.source === 'implied';
    const standing: Standing = implied ? 'implied' : membership.status;
    return {
      id,
      name,
      standing,
      source: implied ? null : membership.source,
      changedAt: membership.updated_at,
      pendingUntil: standing === 'pending' ? (pendingConsent(data.consents, id, membership.consent_id)?.expires_at ?? null) : null,
      leftByPerson: standing === 'unsubscribed' && !ORGANISATION_SOURCES.has(membership.source),
    };
  });
}

/** A contact who signed up through a form and confirmed nothing: no broadcast reaches it (rules.ts, heldContactSql). */
export function isHeld(data: ContactMemberships): boolean {
  return data.membership === 'explicit' && !data.memberships.some((membership) => membership.status === 'confirmed' && membership.source !== 'implied');
}

/** A sign-up's state: confirmed, waiting for the person, or expired unconfirmed (`now` in ms). */
export function consentState(consent: Consent, now: number): 'confirmed' | 'pending' | 'expired' {
  if (consent.confirmed_at) return 'confirmed';
  return consent.expires_at && Date.parse(consent.expires_at) <= now ? 'expired' : 'pending';
}
