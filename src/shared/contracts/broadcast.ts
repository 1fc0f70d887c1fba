import { z } from 'zod';
import { answer, moment, namedRef, whole } from '../answer-schema';
import { MESSAGES, greaterThan } from '../messages';
import { IDS_MAX, searchText } from '../list';
import { optionalText, requiredText } from '../zod-helpers';
import { contactFilterShape } from './contact';
import { DELIVERY_STATUSES, MESSAGE_OUTCOMES, outcomeFilterShape } from './message';
import { TEMPLATE_TYPES, aliasText, type TemplateType } from './template';

// Broadcasts: one template from one sender to every contact a filter selects (spec 3, 4, 5, 7). The statuses below
// and the actions that move them; the life of a broadcast is drawn once, in src/modules/broadcast/lifecycle.ts.

/** Broadcast channels: email, or phone (SMS), as the sender's type. */
export const BROADCAST_TYPES = ['email', 'phone'] as const;
export type BroadcastType = (typeof BROADCAST_TYPES)[number];

export const BROADCAST_STATUSES = ['waiting', 'queued', 'sending', 'paused', 'cancelled', 'finished'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The actions a user can take on a broadcast: POST /broadcast/{id}/{action}. */
export const BROADCAST_ACTIONS = ['pause', 'resume', 'cancel', 'retry-failed'] as const;
export type BroadcastAction = (typeof BROADCAST_ACTIONS)[number];

/** The status each action needs. */
export const ACTION_FROM: Record<BroadcastAction, readonly BroadcastStatus[]> = {
  pause: ['queued', 'sending'],
  resume: ['paused'],
  cancel: ['waiting', 'queued', 'sending', 'paused'],
  'retry-failed': ['finished'],
};

/** Which actions a broadcast offers now: those its status allows (retry failed only when something failed). */
export function actionsFor(status: BroadcastStatus, failed: number): BroadcastAction[] {
  return BROADCAST_ACTIONS.filter((action) => ACTION_FROM[action].includes(status) && (action !== 'retry-failed' || failed > 0));
}

export const BROADCAST_LIMITS = {
  /** Seconds between two sends (sleep); 0 sends as fast as the engine and the integration allow. */
  maxSleep: 86_400,
  /** How far ahead a broadcast can be scheduled. */
  maxScheduleDays: 365,
  /** Contacts a preview sample shows. */
  sampleSize: 5,
  /** Up to this many matches the preview also counts the skipped ones. */
  previewSkipCountMax: 100_000,
} as const;

export const BROADCAST_MESSAGES = {
  type: 'Type must be email or phone',
  past: 'The scheduled time cannot be in the past',
  tooFar: `The scheduled time must be within ${BROADCAST_LIMITS.maxScheduleDays} days`,
  senderType: (type: BroadcastType) => (type === 'email' ? 'Choose an email sender' : 'Choose a phone sender'),
  templateType: (type: BroadcastType) => (type === 'email' ? 'Email broadcasts send html or email templates' : 'SMS broadcasts send text templates'),
  subscriptionNotFound: 'Subscription not found',
  contactNotFound: 'Contact not found',
  noRecipients: 'No contact matches the recipients filter',
  transition: (action: BroadcastAction, status: BroadcastStatus) =>
    `The broadcast is ${status}: it cannot be ${({ pause: 'paused', resume: 'resumed', cancel: 'cancelled', 'retry-failed': 'retried' } as const)[action]} now`,
  nothingToRetry: 'No message of this broadcast failed with an error worth retrying',
} as const;

/** Why a recipient got no message (status skipped). */
export const SKIP_REASONS = {
  noAddress: { email: 'The contact has no email address', phone: 'The contact has no phone number' },
  blacklisted: 'The address is on the blacklist',
  /** Blacklisted by the platform (src/modules/bounce): the blacklist entry's reason says which. */
  bounced: 'The address bounced: mail to it does not arrive',
  softBounced: 'Mail to the address kept bouncing',
  complained: 'The recipient reported a message as spam',
  unsubscribed: 'The contact unsubscribed from this subscription',
  smsOptedOut: 'The number replied STOP: no SMS goes to it',
  cancelled: 'The broadcast was cancelled before this message went out',
} as const;

/** Template types each broadcast type sends (as campaign entries pair them). */
export const BROADCAST_TEMPLATE_TYPES: Record<BroadcastType, readonly TemplateType[]> = { email: ['html', 'email'], phone: ['text'] };

const id = (label: string) =>
  z
    .number({ error: (i) => (i.input == null ? MESSAGES.required : `Choose a ${label}`) })
    .int(`Choose a ${label}`)
    .positive(`Choose a ${label}`);

/** The recipients filter (spec 5): ids, attributes, tags, address, skip_unsubscribed. Query-style values are accepted. */
export const recipientFilterSchema = z
  .object({
    ids: z
      .array(z.number({ error: 'ids must be contact ids' }).int('ids must be contact ids').positive('ids must be contact ids'))
      .max(IDS_MAX, `At most ${IDS_MAX} contacts`)
      .optional(),
    tags: contactFilterShape.tags,
    address: contactFilterShape.address,
    attributes: contactFilterShape.attributes,
    /** Leave out contacts who unsubscribed from the broadcast's subscription (default true). */
    skip_unsubscribed: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
  })
  .strict();
export type RecipientFilter = z.infer<typeof recipientFilterSchema>;

export const recipientsSchema = z
  .object({
    filter: recipientFilterSchema.default({}),
    search: searchText().optional(),
  })
  .strict();
export type Recipients = z.infer<typeof recipientsSchema>;

/**
 * POST /broadcast (spec 7): name, alias, note, type, template_id, sender_id, sleep, delayed_at (null when
 * immediate), subscription_id (omitted when do_not_unsubscribe), contacts { filter, search }.
 */
export const broadcastInputSchema = z
  .object({
    name: requiredText(200),
    alias: aliasText(),
    note: optionalText(1000),
    type: z.enum(BROADCAST_TYPES, { error: (i) => (i.input == null ? MESSAGES.required : BROADCAST_MESSAGES.type) }).default('email'),
    template_id: id('template'),
    sender_id: id('sender'),
    sleep: z
      .number({ error: MESSAGES.mustBeNumber })
      .int('Must be a whole number of seconds')
      .min(0, greaterThan(-1))
      .max(BROADCAST_LIMITS.maxSleep, `At most ${BROADCAST_LIMITS.maxSleep} seconds`)
      .nullish()
      .transform((v) => v ?? 0),
    delayed_at: z.iso
      .datetime({ offset: true, error: MESSAGES.mustBeDate })
      .nullish()
      .transform((v) => (v ? new Date(v).toISOString() : null)),
    subscription_id: id('subscription').nullish(),
    do_not_unsubscribe: z.boolean({ error: MESSAGES.mustBeBoolean }).optional().default(false),
    /** Open pixel and click redirects in the email html; omitted: the organisation's defaults. */
    track_opens: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    track_clicks: z.boolean({ error: MESSAGES.mustBeBoolean }).optional(),
    contacts: recipientsSchema.default({ filter: {} }),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.do_not_unsubscribe && v.subscription_id == null) ctx.addIssue({ code: 'custom', message: MESSAGES.required, path: ['subscription_id'] });
    if (v.delayed_at) {
      const at = Date.parse(v.delayed_at);
      // A minute of grace: the form's clock and the request take a moment.
      if (at < Date.now() - 60_000) ctx.addIssue({ code: 'custom', message: BROADCAST_MESSAGES.past, path: ['delayed_at'] });
      if (at > Date.now() + BROADCAST_LIMITS.maxScheduleDays * 86_400_000)
        ctx.addIssue({ code: 'custom', message: BROADCAST_MESSAGES.tooFar, path: ['delayed_at'] });
    }
  });
export type BroadcastInput = z.infer<typeof broadcastInputSchema>;

/** POST /broadcast/preview: how many contacts the recipients filter matches, and a few of them. */
export const recipientsPreviewSchema = z
  .object({
    type: z.enum(BROADCAST_TYPES, { error: BROADCAST_MESSAGES.type }).default('email'),
    subscription_id: id('subscription').nullish(),
    contacts: recipientsSchema.default({ filter: {} }),
  })
  .strict();
export type RecipientsPreviewInput = z.infer<typeof recipientsPreviewSchema>;

export interface RecipientsPreview {
  /** Contacts the filter matches: the broadcast's recipients if it started now. */
  total: number;
  /** Of those, how many would be skipped (no address of the type, blacklisted, unsubscribed); null above PREVIEW_SKIP_COUNT_MAX matches, where counting them would take too long for a form. */
  skipped: number | null;
  sample: { id: number; name: string; address: string | null; skipped_reason: string | null }[];
}

export const broadcastEngagementSchema = answer({
  opens: whole(),
  opens_unique: whole(),
  human_opens: whole(),
  human_opens_unique: whole(),
  clicks: whole(),
  clicks_unique: whole(),
  human_clicks: whole(),
  human_clicks_unique: whole(),
  unsubscribes: whole(),
  /** Messages that bounced (hard) and that were reported as spam (src/modules/bounce). */
  bounces: whole(),
  complaints: whole(),
  /** SMS the carrier did not deliver or the provider failed, each once (Twilio's delivery reports: src/modules/sms-hooks). */
  undelivered: whole(),
});
export type BroadcastEngagement = z.infer<typeof broadcastEngagementSchema>;

const broadcastProgressShape = {
  id: whole(),
  status: z.enum(BROADCAST_STATUSES),
  total: whole().describe('Recipients: the contacts the filter selected when it started, exact once the engine has walked the whole filter (recipients_final)'),
  recipients_final: z.boolean(),
  sent: whole(),
  failed: whole(),
  skipped: whole(),
  started_at: moment().nullable(),
  finished_at: moment().nullable(),
  paused_reason: z.string().nullable().describe('Why the engine paused it (e.g. the SMTP server refused every connection); null when a user paused it'),
  held_until: moment().nullable().describe('Until when the integration\'s send limit (or a provider\'s "try later") holds messages back'),
  expected_finish_at: moment().nullable().describe("When it should end at the current pace: sleep between sends, or the integration's limit"),
  updated_at: moment().describe('When the row last changed: of two progress reports, the later one is current'),
  engagement: broadcastEngagementSchema,
};
/** A broadcast's counters and status: the live channel's broadcast.progress event. */
export const broadcastProgressSchema = answer(broadcastProgressShape);
export type BroadcastProgress = z.infer<typeof broadcastProgressSchema>;

/** GET /broadcast/{id}: the progress, the settings and what the user can do now. */
export const broadcastSchema = answer({
  ...broadcastProgressShape,
  name: z.string(),
  alias: z.string().nullable(),
  note: z.string().nullable(),
  type: z.enum(BROADCAST_TYPES),
  sender_id: whole().nullable(),
  template_id: whole().nullable(),
  subscription_id: whole().nullable(),
  do_not_unsubscribe: z.boolean(),
  skip_unsubscribed: z.boolean(),
  track_opens: z.boolean(),
  track_clicks: z.boolean(),
  sleep: whole(),
  delayed_at: moment().nullable(),
  immediate: z.boolean(),
  contacts: recipientsSchema,
  opens: whole(),
  clicks: whole(),
  unsubscribes: whole(),
  sender: answer({ id: whole(), value: z.string(), name: z.string().nullable() }).nullable(),
  template: namedRef({ type: z.enum(TEMPLATE_TYPES) }).nullable(),
  subscription: namedRef().nullable(),
  actions: z.array(z.enum(BROADCAST_ACTIONS)).describe('What the user can do now'),
  created_at: moment(),
});
export type Broadcast = z.infer<typeof broadcastSchema>;

/** GET /broadcast/{id}/recipients: one row per recipient, with the address used and what became of it. */
export const RECIPIENT_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const recipientListFilterShape = {
  status: z.enum(RECIPIENT_STATUSES, { error: 'status must be queued, sent, failed or skipped' }).optional(),
  ...outcomeFilterShape,
};

export const broadcastRecipientSchema = answer({
  message_id: whole(),
  contact_id: whole().nullable(),
  contact_name: z.string().nullable(),
  address: z.string(),
  status: z.enum(RECIPIENT_STATUSES),
  outcome: z.enum(MESSAGE_OUTCOMES).describe('The status as the console shows it: bounced, complained or undelivered when the delivery report undid the send'),
  reason: z.string().nullable().describe("The skipped reason, or the provider's words for a failure"),
  sent_at: moment().nullable(),
  delivery_status: z
    .enum(DELIVERY_STATUSES)
    .nullable()
    .describe("The delivery report: an SMS's from the provider; an email's when it bounced or was reported as spam (null until then)"),
  delivery_error_code: z.string().nullable().describe("The error code of an undelivered SMS, or a bounced email's status code (5.1.1)"),
});
export type BroadcastRecipient = z.infer<typeof broadcastRecipientSchema>;
