import { z } from 'zod';
import { answer, whole } from '../answer-schema';

// A contact's standing in a subscription (issue 39, src/modules/membership). The rule of who a broadcast reaches is
// src/modules/membership/rules.ts; this is the shape the API and console read and write.

export const MEMBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/**
 * How a membership came to be: added by the organisation (import, console, api), signed up by the person (form),
 * changed by the person on the preferences page (preferences, resubscribe), left (unsubscribe), or copied from the
 * unsubscribes when memberships began (migration). 'implied': no row, an organisation-added contact's default.
 */
export const MEMBER_SOURCES = ['import', 'console', 'api', 'form', 'preferences', 'resubscribe', 'unsubscribe', 'migration', 'implied'] as const;
export type MemberSource = (typeof MEMBER_SOURCES)[number];

/** The sources an organisation may give when it adds members (it collected consent elsewhere). */
export const ORGANISATION_MEMBER_SOURCES = ['import', 'console', 'api'] as const;

/** contacts.membership: 'implied' (added by the organisation) or 'explicit' (signed up through a form). */
export const CONTACT_MEMBERSHIPS = ['implied', 'explicit'] as const;
export type ContactMembership = (typeof CONTACT_MEMBERSHIPS)[number];

/** Days an unconfirmed sign-up is kept. */
export const PENDING_DAYS = 7;

/** The consent a sign-up gave, as the contact's page and the API show it. */
export const consentSchema = answer({
  id: whole(),
  form_id: whole().nullable(),
  form_name: z.string(),
  subscription_ids: z.array(whole()),
  signed_up_at: z.string(),
  confirmed_at: z.string().nullable(),
  confirm_user_agent: z.string().nullable(),
  /** HMAC-SHA-256 of the confirming request's IP under the platform's key (hex): proves a later claim of the same IP, never reveals one. */
  confirm_ip_hash: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export type Consent = z.infer<typeof consentSchema>;

/** One membership of a contact (GET /contact/{id}/memberships, and the subscription's member list). */
export const membershipSchema = answer({
  subscription_id: whole(),
  subscription_name: z.string(),
  contact_id: whole(),
  status: z.enum(MEMBER_STATUSES),
  source: z.enum(MEMBER_SOURCES),
  consent_id: whole().nullable(),
  updated_at: z.string().nullable(),
});
export type Membership = z.infer<typeof membershipSchema>;

/** What an organisation writes: a membership confirmed (or unsubscribed) with the source it came from. */
export const membershipInputSchema = z
  .object({
    subscription_id: whole(),
    status: z.enum(['confirmed', 'unsubscribed']).default('confirmed'),
    source: z.enum(ORGANISATION_MEMBER_SOURCES).optional(),
  })
  .strict();
export type MembershipInput = z.infer<typeof membershipInputSchema>;

/**
 * PUT /contact/{id}/memberships: the organisation sets the contact's standing in the subscriptions it names (others are
 * left as they are). A source left out is the caller's: 'console' for a signed-in user, 'api' for an API key.
 */
export const membershipsPutSchema = z
  .object({ memberships: z.array(membershipInputSchema).min(1, 'Name at least one subscription').max(1000, 'At most 1000 subscriptions') })
  .strict();
export type MembershipsPut = z.infer<typeof membershipsPutSchema>;

/** GET /contact/{id}/memberships (and PUT's answer). */
export const contactMembershipsSchema = answer({
  membership: z.enum(CONTACT_MEMBERSHIPS),
  memberships: z.array(membershipSchema),
  consents: z.array(consentSchema),
});
export type ContactMemberships = z.infer<typeof contactMembershipsSchema>;
