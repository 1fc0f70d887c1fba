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

export const MEMBERSHIP_MESSAGES = {
  unknownSubscription: 'No subscription of this organisation has this id',
  twice: 'This subscription is named twice',
  pageOrAfter: 'Send page or after_id, not both',
} as const;

/** One member of a subscription (GET /subscription/{id}/members): the contact and its standing there. */
export const subscriptionMemberSchema = answer({
  contact_id: whole(),
  contact_name: z.string(),
  status: z.enum(MEMBER_STATUSES),
  source: z.enum(MEMBER_SOURCES),
  consent_id: whole().nullable(),
  updated_at: z.string().nullable(),
});
export type SubscriptionMember = z.infer<typeof subscriptionMemberSchema>;

/**
 * GET /subscription/{id}/members: in contact id order. `status=confirmed` includes the contacts the organisation added
 * (source 'implied'). Deep pages: `after_id` (the last contact_id of the page before) reads the next page by contact
 * id at any depth; `page` counts rows from the start as the other lists do.
 */
export const memberListQuerySchema = z
  .object({
    status: z.enum(MEMBER_STATUSES, { error: `status must be one of: ${MEMBER_STATUSES.join(', ')}` }).optional(),
    page: z.coerce
      .number({ error: 'page must be a whole number' })
      .int('page must be a whole number')
      .min(1, 'page must be at least 1')
      .max(1_000_000, 'page is too large')
      .optional(),
    page_size: z.coerce
      .number({ error: 'page_size must be a whole number' })
      .int('page_size must be a whole number')
      .min(1, 'page_size must be at least 1')
      .max(100, 'page_size must be at most 100')
      .optional(),
    after_id: z.coerce
      .number({ error: 'after_id must be a contact id' })
      .int('after_id must be a contact id')
      .min(0, 'after_id must be a contact id')
      .optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.page !== undefined && q.after_id !== undefined) ctx.addIssue({ code: 'custom', path: ['after_id'], message: MEMBERSHIP_MESSAGES.pageOrAfter });
  });
export type MemberListQuery = z.infer<typeof memberListQuerySchema>;
