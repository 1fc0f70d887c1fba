import { z } from 'zod';
import { answer, moment, stampsShape, whole } from '../answer-schema';

// Messages: every email or SMS the platform sends, test messages included. Read and delete only.
export const MESSAGE_TYPES = ['email', 'sms'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
/** queued (waiting or being sent), sent, failed (with the error), skipped (a broadcast recipient left out, with the reason). */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * An SMS's delivery as the provider reports it (Twilio status callbacks), moved forward only; undelivered and
 * failed come with the provider's error code.
 */
/**
 * An SMS's delivery report from its provider, and an email's from what came back to its bounce address
 * (src/modules/bounce): bounced (a hard bounce), soft_bounced, complained (reported as spam).
 */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'bounced', 'soft_bounced', 'complained'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * What became of a message as a person reads it (the console's status chip and status filter): its status, except
 * that a sent message whose delivery report says it never reached the person reads as that report: bounced (a hard
 * bounce), complained (reported as spam), undelivered (an SMS the carrier did not deliver, or the provider failed).
 * A soft bounce and an SMS still on its way stay "sent". `status` keeps its four values for API clients.
 */
export const MESSAGE_OUTCOMES = ['queued', 'sent', 'failed', 'skipped', 'bounced', 'complained', 'undelivered'] as const;
export type MessageOutcome = (typeof MESSAGE_OUTCOMES)[number];

/** The one rule of the outcome: the delivery reports that turn a sent message into another outcome. */
export const REPORTED_OUTCOMES = {
  bounced: 'bounced',
  complained: 'complained',
  undelivered: 'undelivered',
  failed: 'undelivered',
} as const satisfies Partial<Record<DeliveryStatus, MessageOutcome>>;

/** A message's outcome from its stored status (`sending` reads as queued) and its delivery report. */
export function messageOutcome(status: string, deliveryStatus: string | null): MessageOutcome {
  if (status === 'sent' && deliveryStatus && deliveryStatus in REPORTED_OUTCOMES) return REPORTED_OUTCOMES[deliveryStatus as keyof typeof REPORTED_OUTCOMES];
  return (status === 'sending' ? 'queued' : status) as MessageOutcome;
}

const outcomeFilter = z
  .enum(MESSAGE_OUTCOMES, { error: 'outcome must be queued, sent, failed, skipped, bounced, complained or undelivered' })
  .optional()
  .describe('What became of the message as the console shows it: its status, or the delivery report that undid a send (GET ?outcome=bounced)');

/** The outcome filter of the message list and of a broadcast's recipients. */
export const outcomeFilterShape = { outcome: outcomeFilter };

/**
 * Where a message came from: a broadcast's recipient, a test message sent from the console, or a transactional
 * message sent through POST /send. One rule, from the row: messageKind.
 */
export const MESSAGE_KINDS = ['broadcast', 'test', 'transactional'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export function messageKind(row: { broadcastId: number | null; isTest: boolean }): MessageKind {
  return row.broadcastId !== null ? 'broadcast' : row.isTest ? 'test' : 'transactional';
}

/** Filters of GET /message (and of the bulk delete), next to page, sort and search. */
export const messageFilterShape = {
  kind: z.enum(MESSAGE_KINDS, { error: 'kind must be broadcast, test or transactional' }).optional(),
  status: z.enum(MESSAGE_STATUSES, { error: 'status must be queued, sent, failed or skipped' }).optional(),
  ...outcomeFilterShape,
  type: z.enum(MESSAGE_TYPES, { error: 'type must be email or sms' }).optional(),
  broadcast_id: z.coerce
    .number({ error: 'broadcast_id must be a broadcast id' })
    .int('broadcast_id must be a broadcast id')
    .positive('broadcast_id must be a broadcast id')
    .optional(),
  // A contact's page lists the contact's latest messages.
  contact_id: z.coerce
    .number({ error: 'contact_id must be a contact id' })
    .int('contact_id must be a contact id')
    .positive('contact_id must be a contact id')
    .optional(),
};

export const messageSchema = answer({
  id: whole(),
  type: z.enum(MESSAGE_TYPES),
  status: z.enum(MESSAGE_STATUSES),
  outcome: z
    .enum(MESSAGE_OUTCOMES)
    .describe('The status as the console shows it: a sent message that bounced, was reported as spam or (SMS) not delivered reads as that'),
  is_test: z.boolean(),
  kind: z.enum(MESSAGE_KINDS).describe('broadcast, test (sent from the console) or transactional (POST /send)'),
  metadata: z.record(z.string(), z.string()).nullable().describe("A transactional message's metadata as the caller gave it"),
  api_key_id: whole().nullable().describe('The organisation API key a transactional message was sent with'),
  cc: z.array(z.string()).describe('Email only: the Cc addresses of a transactional message'),
  bcc: z.array(z.string()),
  reply_to: z.string().nullable(),
  subscription_id: whole().nullable().describe("A transactional message's category: its unsubscribes apply"),
  sandbox: z.boolean().describe('Sent with a test key: recorded as sent, never delivered'),
  sender_id: whole().nullable(),
  template_id: whole().nullable(),
  contact_id: whole().nullable(),
  broadcast_id: whole().nullable(),
  from_address: z.string(),
  from_name: z.string().nullable(),
  to_address: z.string(),
  subject: z.string().nullable(),
  body: z.string().describe("Broadcast messages are rendered again from the broadcast's frozen template when read (their rows keep no body)"),
  body_plain: z.string().nullable(),
  html: z.boolean().describe('Whether body is html (show it sandboxed) or plain text'),
  delayed_at: moment().nullable(),
  sent_at: moment().nullable(),
  external_id: z.string().nullable(),
  error: z.string().nullable().describe('Why it failed (or the last retryable error while still queued)'),
  attempts: whole(),
  opens_total: whole().describe('Every open hit; a click counts as an open'),
  opens_unique: whole().describe('1 once opened, the first at opened_at'),
  opened_at: moment().nullable(),
  clicks_total: whole(),
  clicks_unique: whole(),
  clicked_at: moment().nullable(),
  human_opens: whole().describe('The same for hits classified human (src/modules/tracking/classify.ts)'),
  human_opened_at: moment().nullable(),
  human_clicks: whole(),
  human_clicked_at: moment().nullable(),
  delivery_status: z.enum(DELIVERY_STATUSES).nullable().describe('SMS only: null until the provider reports'),
  delivery_error_code: z.string().nullable(),
  ...stampsShape,
});
export type Message = z.infer<typeof messageSchema>;

/** Items of GET /message leave out the bodies (GET /message/{id} has them). */
export const messageListItemSchema = messageSchema.omit({ body: true, body_plain: true, html: true });
export type MessageListItem = z.infer<typeof messageListItemSchema>;
