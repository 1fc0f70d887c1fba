import type { SuppressionReason } from './suppression';
import { z } from 'zod';
import { MESSAGES, atMostCharacters } from '../messages';

// The public unsubscribe page (spec 2: /unsubscribe, outside the route guard) and what the console shows of
// a contact's unsubscribes. The signed link (`m`) names the organisation, the contact and the message; nothing
// the recipient sends can name another.

/** The reasons offered on the page (the console translates them); "other" goes with free text. */
export const UNSUBSCRIBE_REASONS = ['too_frequent', 'not_relevant', 'never_signed_up', 'spam', 'other'] as const;
export type UnsubscribeReason = (typeof UNSUBSCRIBE_REASONS)[number];

/**
 * How an unsubscribe was made: `complaint` is the recipient's "Report spam" (src/modules/bounce); `console`, `api` and
 * `import` are the organisation's word (PUT /contact/{id}/memberships and the contact writes, src/modules/membership).
 */
export const UNSUBSCRIBE_SOURCES = ['page', 'one_click', 'console', 'complaint', 'api', 'import'] as const;
export type UnsubscribeSource = (typeof UNSUBSCRIBE_SOURCES)[number];

export const UNSUBSCRIBE_LIMITS = { comment: 500, token: 2000 } as const;

export const UNSUBSCRIBE_MESSAGES = {
  linkInvalid: 'This unsubscribe link is not valid: it may be incomplete or no longer in use',
  chooseCategory: 'Choose a category',
  unknownCategory: 'This category does not exist',
} as const;

const token = z
  .string({ error: UNSUBSCRIBE_MESSAGES.linkInvalid })
  .trim()
  .min(1, UNSUBSCRIBE_MESSAGES.linkInvalid)
  .max(UNSUBSCRIBE_LIMITS.token, UNSUBSCRIBE_MESSAGES.linkInvalid);
const subscriptionId = z
  .number({ error: UNSUBSCRIBE_MESSAGES.chooseCategory })
  .int(UNSUBSCRIBE_MESSAGES.chooseCategory)
  .positive(UNSUBSCRIBE_MESSAGES.chooseCategory);

/** POST /api/v1/unsubscribe: leave one category, with an optional reason. */
export const unsubscribeBody = z.object({
  m: token,
  subscription_id: subscriptionId,
  reason: z.enum(UNSUBSCRIBE_REASONS, { error: 'Choose one of the reasons' }).nullish(),
  comment: z.string({ error: MESSAGES.mustBeText }).trim().max(UNSUBSCRIBE_LIMITS.comment, atMostCharacters(UNSUBSCRIBE_LIMITS.comment)).nullish(),
});
export type UnsubscribeBody = z.infer<typeof unsubscribeBody>;

/** POST /api/v1/unsubscribe/resubscribe: undo, or join a category again. */
export const resubscribeBody = z.object({ m: token, subscription_id: subscriptionId });

/** GET /api/v1/unsubscribe?m=: what the page shows. */
export interface UnsubscribePageData {
  organization: { name: string };
  /** The recipient's address with most of it hidden (a forwarded link shows little of it). */
  recipient: string | null;
  /** The category of the message the link came in, when it had one. */
  category: { id: number; name: string } | null;
  /** `subscribed`: the contact gets the category's mail; `pending`: a sign-up awaiting its confirmation (gets none yet). */
  categories: { id: number; name: string; subscribed: boolean; pending: boolean }[];
}

/** One unsubscribe of a contact, as the contact's page lists it. */
export interface ContactUnsubscribe {
  subscription_id: number;
  subscription_name: string;
  reason: UnsubscribeReason | null;
  comment: string | null;
  source: UnsubscribeSource | null;
  message_id: number | null;
  broadcast_id: number | null;
  created_at: string;
}

/** One unsubscribe in a broadcast's list. */
export interface BroadcastUnsubscribe {
  contact_id: number;
  contact_name: string | null;
  /** The category left (null once it was deleted). */
  subscription_name: string | null;
  reason: UnsubscribeReason | null;
  comment: string | null;
  source: UnsubscribeSource | null;
  created_at: string;
}

/**
 * An address of the contact on the organisation's blacklist: put there by the platform (reason: a bounce, repeated
 * soft bounces, a spam complaint, with the message that did it) or by a person (reason null).
 */
export interface ContactSuppression {
  id: number;
  type: 'email' | 'phone';
  value: string;
  reason: SuppressionReason | null;
  info: string | null;
  message_id: number | null;
  created_at: string;
}

/** A contact's engagement-related opt-outs: GET /contact/{id}/unsubscribes. */
export interface ContactOptOuts {
  unsubscribes: ContactUnsubscribe[];
  /** Numbers of the contact that replied STOP, with the keyword and when. */
  sms_opt_outs: { phone: string; keyword: string; created_at: string }[];
  /** Its addresses nothing is sent to; DELETE /contact/{id}/suppressions/{id} lifts one. */
  suppressions: ContactSuppression[];
}
