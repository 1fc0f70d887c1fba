import { z } from 'zod';
import { answer, moment, whole } from '../answer-schema';

// The transactional send API (issue 36): POST /send sends one message to one recipient, from a stored template with
// per-message data or from content given inline; POST /send/batch sends up to BATCH_MAX of them, each answered on its
// own. The route is src/modules/transactional/routes.ts; what a message may carry is limited here, in one place.

export const TRANSACTIONAL_LIMITS = {
  /** Messages in one POST /send/batch. */
  batch: 500,
  /** Bytes of a message's `data` as JSON. */
  dataBytes: 32_768,
  /** Keys of `metadata`, and the characters of each key and value. */
  metadataKeys: 20,
  metadataKeyChars: 40,
  metadataValueChars: 500,
  /** Addresses in cc, and in bcc. */
  copies: 10,
  /** Attachments of one message, given by id and inline together. */
  attachments: 10,
  /** Decoded bytes of one message's inline attachments together (stored in R2 before the message is queued). */
  inlineBytes: 5_000_000,
  /** How far ahead send_at may be. */
  scheduleHours: 72,
  /** Characters of an inline subject, and of an inline body. */
  subjectChars: 998,
  bodyChars: 500_000,
} as const;

export const TRANSACTIONAL_MESSAGES = {
  templateNotFound: 'No template of this organisation has this id',
  senderNotFound: 'No sender of this organisation has this id',
  attachmentNotFound: 'No attachment of this organisation has this id',
  subscriptionNotFound: 'No subscription of this organisation has this id',
  contactNotFound: 'No contact of this organisation has this id',
  contentOrTemplate: 'Give template_id, or the content inline (html or text)',
  notBoth: 'Give template_id or inline content, not both',
  subjectRequired: 'An email needs a subject: give one, or a template with one',
  smsNoEmailParts: 'An SMS has no subject, html, cc, bcc, reply_to, headers or attachments',
  channelMismatch: (sender: 'email' | 'phone') =>
    sender === 'email' ? 'The sender sends email: `to` must be an email address' : 'The sender sends SMS: `to` must be a phone number (+ and digits)',
  templateMismatch: 'This template cannot be sent by this sender (a text template goes by SMS or email, html and email templates by email)',
  missingData: (names: string[]) => `The template needs ${names.map((n) => `data.${n}`).join(', ')}, which the data lacks`,
  dataTooLarge: `data is larger than ${TRANSACTIONAL_LIMITS.dataBytes / 1024} KB as JSON`,
  metadataTooMany: `metadata has more than ${TRANSACTIONAL_LIMITS.metadataKeys} keys`,
  metadataKey: `Each metadata key is 1 to ${TRANSACTIONAL_LIMITS.metadataKeyChars} characters`,
  metadataValue: `Each metadata value is a string of at most ${TRANSACTIONAL_LIMITS.metadataValueChars} characters`,
  tooManyCopies: `At most ${TRANSACTIONAL_LIMITS.copies} addresses`,
  tooManyAttachments: `At most ${TRANSACTIONAL_LIMITS.attachments} attachments in one message`,
  inlineTooLarge: `The inline attachments total more than ${TRANSACTIONAL_LIMITS.inlineBytes / 1_000_000} MB`,
  notBase64: 'content must be base64',
  sendAtPast: 'send_at is in the past',
  sendAtTooFar: `send_at is at most ${TRANSACTIONAL_LIMITS.scheduleHours} hours ahead`,
  blacklisted: 'This address is on the blacklist: nothing was sent',
  suppressedBounce: 'This address bounced (the mailbox does not exist): nothing was sent. Lift the suppression on the contact page first',
  suppressedComplaint: 'This address reported a message as spam: nothing was sent',
  optedOut: 'This number replied STOP: nothing is sent to it until it replies START',
  unsubscribed: 'This contact unsubscribed from this category: nothing was sent',
  smsTooLong: `The text is longer than the 1600 characters an SMS can carry`,
  batchTooLarge: `At most ${TRANSACTIONAL_LIMITS.batch} messages in one batch`,
  batchEmpty: 'Give at least one message',
} as const;

const id = (name: string) =>
  z.coerce
    .number({ error: `${name} must be an id` })
    .int(`${name} must be an id`)
    .positive(`${name} must be an id`)
    .max(Number.MAX_SAFE_INTEGER);

const address = z.string({ error: 'Give an email address or a phone number' }).trim().min(1).max(254);

const inlineAttachment = z
  .object({
    filename: z.string().trim().min(1).max(255),
    content_type: z
      .string()
      .trim()
      .regex(/^[\w.+-]+\/[\w.+-]+$/, 'content_type must be a media type such as application/pdf')
      .max(127),
    content: z
      .string()
      .max(Math.ceil((TRANSACTIONAL_LIMITS.inlineBytes * 4) / 3) + 4, `content is larger than ${TRANSACTIONAL_LIMITS.inlineBytes / 1_000_000} MB`),
  })
  .strict();

const metadata = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const entries = Object.entries(value);
  if (entries.length > TRANSACTIONAL_LIMITS.metadataKeys) ctx.addIssue({ code: 'custom', message: TRANSACTIONAL_MESSAGES.metadataTooMany });
  for (const [key, v] of entries) {
    if (key.length === 0 || key.length > TRANSACTIONAL_LIMITS.metadataKeyChars) ctx.addIssue({ code: 'custom', message: TRANSACTIONAL_MESSAGES.metadataKey });
    else if (typeof v !== 'string' || v.length > TRANSACTIONAL_LIMITS.metadataValueChars)
      ctx.addIssue({ code: 'custom', message: TRANSACTIONAL_MESSAGES.metadataValue, path: [key] });
  }
});

/** One message of POST /send (and each item of POST /send/batch). */
export const sendMessageSchema = z
  .object({
    to: address.describe('The recipient: an email address, or a phone number (+ and digits) for an SMS sender. Need not be a contact'),
    sender_id: id('sender_id').describe('The sender (its type decides email or SMS)'),
    contact_id: id('contact_id')
      .optional()
      .describe("The contact whose fields fill the template's contact placeholders; without it, the contact with the `to` address if there is one"),
    template_id: id('template_id').optional().describe('A stored template, rendered with `data` (as {{ data.name }}) and the contact'),
    data: z.record(z.string(), z.unknown()).optional().describe('Per-message values the template reads as {{ data.<key> }}'),
    subject: z.string().max(TRANSACTIONAL_LIMITS.subjectChars).optional().describe('Inline content: the subject (email)'),
    html: z.string().max(TRANSACTIONAL_LIMITS.bodyChars).optional().describe('Inline content: the html body (email)'),
    text: z.string().max(TRANSACTIONAL_LIMITS.bodyChars).optional().describe('Inline content: the plain-text body (email), or the SMS text'),
    cc: z.array(address).max(TRANSACTIONAL_LIMITS.copies, TRANSACTIONAL_MESSAGES.tooManyCopies).optional(),
    bcc: z.array(address).max(TRANSACTIONAL_LIMITS.copies, TRANSACTIONAL_MESSAGES.tooManyCopies).optional(),
    reply_to: address.optional(),
    headers: z.record(z.string(), z.string()).optional().describe('Extra headers from the allow-list (X-… and threading headers)'),
    attachment_ids: z
      .array(id('attachment_ids'))
      .max(TRANSACTIONAL_LIMITS.attachments, TRANSACTIONAL_MESSAGES.tooManyAttachments)
      .optional()
      .describe("Ids of files already stored with the organisation's templates"),
    attachments: z
      .array(inlineAttachment)
      .max(TRANSACTIONAL_LIMITS.attachments, TRANSACTIONAL_MESSAGES.tooManyAttachments)
      .optional()
      .describe(`Files sent inline, base64, ${TRANSACTIONAL_LIMITS.inlineBytes / 1_000_000} MB together at most`),
    metadata: metadata.optional().describe('Your own strings kept with the message and echoed in its events'),
    send_at: z.iso.datetime({ offset: true, error: 'send_at must be an ISO 8601 date and time' }).optional(),
    tracking: z
      .object({ opens: z.boolean().optional(), clicks: z.boolean().optional() })
      .strict()
      .optional()
      .describe("Open and click tracking of an html email; the organisation's defaults when left out"),
    subscription_id: id('subscription_id')
      .optional()
      .describe(
        'The category: the subscription whose unsubscribes apply. The mail then carries a one-click unsubscribe and `to` becomes a contact if it is none. Without one the message is transactional: no unsubscribe link or List-Unsubscribe header',
      ),
  })
  .strict();
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const sendBatchSchema = z
  .object({
    messages: z.array(z.unknown()).min(1, TRANSACTIONAL_MESSAGES.batchEmpty).max(TRANSACTIONAL_LIMITS.batch, TRANSACTIONAL_MESSAGES.batchTooLarge),
  })
  .strict();

/** The answer to one accepted message: 202 with its id at once. */
export const sendAcceptedSchema = answer({
  id: whole(),
  status: z.enum(['queued', 'sent']).describe('queued; sent at once for a test key (never delivered: sandbox)'),
  to: z.string(),
  send_at: moment().nullable(),
  sandbox: z.boolean(),
});
export type SendAccepted = z.infer<typeof sendAcceptedSchema>;

/** POST /send/batch as the API description shows it (each message is checked on its own: sendMessageSchema). */
export const sendBatchDocSchema = z.object({ messages: z.array(sendMessageSchema).min(1).max(TRANSACTIONAL_LIMITS.batch) }).strict();

/** Each message's answer in a batch, in order: 202 with the message, or 422 with the one error envelope's error. */
export const sendBatchItemSchema = z
  .object({
    index: whole(),
    status: z.union([z.literal(202), z.literal(422)]),
    data: sendAcceptedSchema.optional(),
    error: z.object({ code: z.string(), message: z.string(), fields: z.record(z.string(), z.array(z.string())).optional() }).optional(),
  })
  .strict();
export const sendBatchAnswerSchema = z.array(sendBatchItemSchema);

/** How a transactional message goes out beyond its row (stored as JSON in messages.send_options). */
export interface SendOptions {
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  headers?: Record<string, string>;
  /** Files besides the template's own: stored R2 keys. */
  attachments?: { key: string; filename: string; contentType: string; size: number }[];
  tracking?: { opens: boolean; clicks: boolean };
  /** An email whose body is plain text (inline `text` without `html`); html otherwise. */
  plain?: boolean;
  /** The category: its unsubscribes apply and the mail carries one-click unsubscribe. */
  subscriptionId?: number;
  /** Sent with a test key: recorded as sent, never delivered. */
  sandbox?: boolean;
}
