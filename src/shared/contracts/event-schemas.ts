import { z } from 'zod';
import { MEMBER_SOURCES } from './membership';
import { contactAttributeSchema } from './contact';
import { EVENT_TYPES, EVENT_VERSION, type EventType } from './events';
import { HIT_CLASSES } from './tracking';

// The data of each event type, version 1 (EVENT_VERSION): exactly what writes it. The ledger's triggers (ledger step
// 14, src/modules/ledger/ledger-schema.ts) for messages, hits and broadcasts; D1's (migration 0029) for contact
// deletions, unsubscribes, suppressions and SMS opt-outs; the absorber (src/modules/event/absorb.ts) for contact.created
// and .updated; the inbound SMS route for sms.received. A change that breaks a reader is a new version, not an edit.
// The OpenAPI document lists them as `webhooks` (src/modules/api-docs/webhooks.ts).

const id = z.number().int().positive();
const nullableId = id.nullable();

/** The message an event is about, as the ledger's event_messages view writes it. */
const eventMessageSchema = z
  .object({
    id,
    channel: z.enum(['email', 'sms']),
    broadcast_id: nullableId.describe('The broadcast that sent it; null for a single message'),
    contact_id: nullableId,
    sender_id: nullableId,
    template_id: nullableId,
    to: z.string().describe('The address or number it went to'),
    subject: z.string().nullable(),
    api_key_id: nullableId.describe('The organisation API key that sent it through the send API, if one did'),
  })
  .describe('The message');

/** The send API's metadata of the message, as given (null when none). */
const metadataSchema = z.record(z.string(), z.unknown()).nullable().describe('The metadata the send API was given with the message, or null');

const messageOutcome = z.object({
  message: eventMessageSchema,
  metadata: metadataSchema,
  error: z.string().nullable().describe('Why it failed (message.failed); null when sent'),
});

const deliveryReport = z.object({
  message: eventMessageSchema,
  metadata: metadataSchema,
  status: z.enum(['bounced', 'soft_bounced', 'complained', 'delivered', 'undelivered', 'failed']).describe("The message's delivery status now"),
  bounce: z.enum(['hard', 'soft']).nullable().describe('The kind of bounce (message.bounced); null otherwise'),
  code: z.string().nullable().describe("The provider's error code, when it gave one"),
});

const trackingHit = z.object({
  message: eventMessageSchema,
  metadata: metadataSchema,
  url: z.string().nullable().describe('The link followed (message.clicked); null for an open'),
  link_index: z.number().int().nullable().describe("The link's position in the message (message.clicked)"),
  human: z.boolean().describe('Whether a person made the hit (class human)'),
  class: z.enum(HIT_CLASSES).describe('Who made the hit: a person, a mail-privacy proxy, a link scanner, or unknown'),
  reason: z.string().describe('Why the hit got its class'),
});

const broadcastStatus = z.object({
  broadcast: z.object({
    id,
    name: z.string(),
    channel: z.enum(['email', 'sms']),
    status: z.string().describe('The status now'),
    total: z.number().int().nullable(),
    sent: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    paused_reason: z.string().nullable(),
  }),
});

/** contact.created and .updated: the contact as it was when the stream took the event (or gone, when deleted by then). */
const contactNow = z.union([
  z.object({
    contact: z.object({
      id,
      name: z.string().nullable(),
      note: z.string().nullable(),
      emails: z.array(z.string()).describe('Its email addresses, in order'),
      phones: z.array(z.string()).describe('Its phone numbers, in order'),
      tags: z.array(z.string()).describe("Its tags' names"),
      attributes: z.array(contactAttributeSchema).describe('Its custom fields with a value, as the contact API answers them'),
    }),
  }),
  z.object({ contact: z.object({ id }), gone: z.literal(true).describe('The contact was deleted before the event was recorded') }),
]);

const address = z.object({ type: z.enum(['email', 'phone']), value: z.string() });

/** Events per page of GET /api/v1/events: by default, and at most. */
export const EVENTS_PAGE_DEFAULT = 100;
export const EVENTS_PAGE_MAX = 500;

/** The data schema of each event type. */
export const EVENT_DATA_SCHEMAS: Record<EventType, z.ZodType> = {
  'message.sent': messageOutcome,
  'message.failed': messageOutcome,
  'message.bounced': deliveryReport,
  'message.complained': deliveryReport,
  'message.opened': trackingHit,
  'message.clicked': trackingHit,
  'contact.created': contactNow,
  'contact.updated': contactNow,
  'contact.deleted': z.object({
    contact: z.object({ id, name: z.string().nullable(), emails: z.array(z.string()), phones: z.array(z.string()) }).describe('The contact as it was'),
    erased: z
      .literal(true)
      .optional()
      .describe('Erased at the person’s request: the name and addresses are not given (find the contact by its id in your own systems)'),
  }),
  'contact.unsubscribed': z.object({
    contact_id: id,
    subscription_id: id.describe('The category left'),
    message_id: nullableId.describe('The message whose link was used, when known'),
    broadcast_id: nullableId,
    reason: z.string().nullable().describe('The reason chosen, if any'),
    source: z.string().nullable().describe('page, one-click or console'),
  }),
  'contact.resubscribed': z.object({ contact_id: id, subscription_id: id.describe('The category joined again') }),
  'contact.subscribed': z.object({
    contact_id: id,
    subscription_id: id,
    source: z.enum(MEMBER_SOURCES).describe('How the membership came: a confirmed form sign-up (form), or added by the organisation (import, console, api)'),
    consent_id: id.nullable().describe('The sign-up whose consent it is (a form), else null'),
  }),
  'contact.suppressed': z.object({
    address,
    contact_id: nullableId.describe('A contact with the address, if any'),
    reason: z.string().nullable().describe('bounce, soft_bounces or complaint; null when a person or the API added it'),
    message_id: nullableId.describe('The message whose bounce or complaint suppressed it'),
  }),
  'contact.unsuppressed': z.object({ address, contact_id: nullableId }),
  'sms.delivered': deliveryReport,
  'sms.undelivered': deliveryReport,
  'sms.received': z.object({
    from: z.string(),
    to: z.string().nullable(),
    body: z.string(),
    integration_id: id,
    contact_id: nullableId.describe('A contact with the sending number, if any'),
    provider_id: z.string().nullable().describe("The provider's id of the message"),
  }),
  'sms.opted_out': z.object({ phone: z.string(), keyword: z.string(), integration_id: nullableId, contact_id: nullableId }),
  'sms.opted_in': z.object({ phone: z.string(), contact_id: nullableId }),
  'broadcast.started': broadcastStatus,
  'broadcast.paused': broadcastStatus,
  'broadcast.resumed': broadcastStatus,
  'broadcast.finished': broadcastStatus,
  'broadcast.cancelled': broadcastStatus,
};

/** The envelope of one event of `type`, as the pull API answers it and a webhook delivers it. */
export function eventEnvelopeSchema(type: EventType) {
  return z.object({
    id: z.string().describe("The event's id ('evt_' and 32 hex digits): the same in the pull API and every delivery (webhook-id)"),
    type: z.literal(type),
    version: z.literal(EVENT_VERSION),
    timestamp: z.string().describe('When the change happened (ISO 8601)'),
    data: EVENT_DATA_SCHEMAS[type],
  });
}

/** Every event, any type. */
export const streamEventSchema = z.union(EVENT_TYPES.map(eventEnvelopeSchema) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

/** The types of a `types` query value (comma-separated); the unknown ones make it invalid. */
export const splitEventTypes = (value: string) =>
  value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/** GET /api/v1/events's query. */
export const eventsQuerySchema = z
  .object({
    after: z.string().max(4000).optional().describe("The previous page's next_cursor; without it, the oldest event kept (30 days) first"),
    types: z
      .string()
      .max(2000)
      .optional()
      .refine((value) => value === undefined || splitEventTypes(value).every((t) => (EVENT_TYPES as readonly string[]).includes(t)), {
        message: `Must be event types, comma-separated, of: ${EVENT_TYPES.join(', ')}`,
      })
      .describe('Only these event types, comma-separated (e.g. message.bounced,contact.unsubscribed)'),
    limit: z.coerce
      .number()
      .int('Must be a whole number')
      .min(1, 'Must be at least 1')
      .max(EVENTS_PAGE_MAX, `Must be at most ${EVENTS_PAGE_MAX}`)
      .optional()
      .describe(`Events per page, 1 to ${EVENTS_PAGE_MAX} (default ${EVENTS_PAGE_DEFAULT})`),
  })
  .strict();

/** GET /api/v1/events's answer. */
export const eventsPageSchema = z.object({
  data: z.array(streamEventSchema).describe('The events, oldest first'),
  next_cursor: z.string().describe('Pass as `after` for the next page; also when has_more is false, to poll for newer events'),
  has_more: z.boolean().describe('Whether more events are there now'),
});
