import { z } from 'zod';
import { EVENT_TYPES } from './events';
import { DELIVERY_STATES, ENDPOINT_HEADER_VALUE_MAX, ENDPOINT_HEADERS_MAX, ENDPOINTS_PER_ORG_MAX, WEBHOOK_MESSAGES } from './webhook-messages';

export { DELIVERY_STATES, ENDPOINT_HEADER_VALUE_MAX, ENDPOINT_HEADERS_MAX, ENDPOINTS_PER_ORG_MAX, WEBHOOK_MESSAGES };
import { answer, moment, stampsShape, whole } from '../answer-schema';

// Webhook endpoints and their deliveries (issue 38, src/modules/webhook): the API's and the console's one contract.
// Deliveries are signed the Standard Webhooks way (standardwebhooks.com): headers webhook-id (the event's id),
// webhook-timestamp (Unix seconds, fresh on every attempt) and webhook-signature (`v1,<base64 HMAC-SHA256 of
// id.timestamp.body>`, two space-separated during a secret's rotation).

/** The value of event_types meaning every type, present and future. */
export const ALL_EVENT_TYPES = '*';

/** An endpoint subscribes to these: EVENT_TYPES or ALL_EVENT_TYPES. */
export const ENDPOINT_EVENT_TYPES = [ALL_EVENT_TYPES, ...EVENT_TYPES] as const;

/** Why the platform turned an endpoint off: the receiver said 410 Gone, or every attempt failed for a day. */
export const ENDPOINT_DISABLED_REASONS = ['gone', 'failing'] as const;
export type EndpointDisabledReason = (typeof ENDPOINT_DISABLED_REASONS)[number];

export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** Events per request for an endpoint that takes batches (an array body). */
export const WEBHOOK_BATCH_MAX = 100;

/** A receiver's answer is awaited this long; then the attempt failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

/** The secret before a rotation keeps signing beside the new one this long. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** An endpoint whose every attempt failed this long is turned off (and the organisation's users told). */
export const FAILING_DISABLE_MS = 24 * 60 * 60 * 1000;

/** Deliveries held for an endpoint that is off are kept (replayable) this long. */
export const PAUSED_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Events stay in the stream (the pull API) this long. */
export const EVENT_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

/** Custom headers an endpoint may not set: the signature's, and what the platform owns. */
export const RESERVED_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'content-length', 'host', 'user-agent'] as const;

export type EndpointEventType = (typeof ENDPOINT_EVENT_TYPES)[number];
export type { EventType } from './events';
export const endpointEventTypeSchema = z.enum(ENDPOINT_EVENT_TYPES);

/** One delivery of an event to an endpoint, as listed (GET .../webhooks/:id/deliveries); times ISO 8601. */
export const webhookDeliverySchema = z.object({
  /** The event's place in its ledger's stream: the list's cursor (`before`). */
  seq: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  event_timestamp: z.string(),
  state: z.enum(DELIVERY_STATES),
  attempts: z.number().int(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_ms: z.number().int().nullable(),
  last_at: z.string().nullable(),
  /** When the next attempt is due (pending only). */
  next_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/** A page of deliveries, newest event first; `next_before` is the next page's `before` (null: no more). */
export const webhookDeliveryPageSchema = z.object({ data: z.array(webhookDeliverySchema), next_before: z.number().int().nullable() });
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

/** What a replay answers: how many deliveries it made pending again. */
export const webhookReplayAnswerSchema = z.object({ replayed: z.number().int() });

// ---- Endpoints API (/api/v1/webhooks, src/modules/webhook/routes.ts) and the console's Webhooks screen ----

/** What reads show in place of a custom header's value; sent back unchanged in a PATCH it keeps the stored value. */
export const HEADER_VALUE_MASK = '********';
/** A replay reaches back at most as far as the stream keeps events. */
export const REPLAY_WINDOW_MS = EVENT_KEEP_MS;
/** Deliveries per page of the log (GET /webhooks/:id/deliveries). */
export const DELIVERIES_PAGE_MAX = 100;

const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED = new Set<string>(RESERVED_HEADERS);

/** Custom request headers: names valid HTTP tokens and not the platform's, values one line of at most 1,000 chars. */
export const endpointHeadersSchema = z
  .record(z.string(), z.string({ error: WEBHOOK_MESSAGES.headerValue }), { error: WEBHOOK_MESSAGES.headers })
  .superRefine((headers, ctx) => {
    const names = Object.keys(headers);
    if (names.length > ENDPOINT_HEADERS_MAX) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.headers });
    for (const name of names) {
      if (!HEADER_TOKEN.test(name)) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.headerName, path: [name] });
      else if (RESERVED.has(name.toLowerCase())) ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.headerReserved, path: [name] });
      const value = headers[name];
      if (value.length > ENDPOINT_HEADER_VALUE_MAX || /[\r\n\0]/.test(value)) {
        ctx.addIssue({ code: 'custom', message: WEBHOOK_MESSAGES.headerValue, path: [name] });
      }
    }
  });

const endpointFields = {
  url: z.string({ error: WEBHOOK_MESSAGES.url }).trim().min(1, WEBHOOK_MESSAGES.url).max(2000, WEBHOOK_MESSAGES.url),
  description: z.string({ error: WEBHOOK_MESSAGES.description }).trim().max(500, WEBHOOK_MESSAGES.description).nullable().optional(),
  event_types: z
    .array(z.enum(ENDPOINT_EVENT_TYPES, { error: WEBHOOK_MESSAGES.eventType }), { error: WEBHOOK_MESSAGES.eventTypes })
    .min(1, WEBHOOK_MESSAGES.eventTypes)
    .max(ENDPOINT_EVENT_TYPES.length, WEBHOOK_MESSAGES.eventTypes),
  headers: endpointHeadersSchema.optional(),
  enabled: z.boolean().optional(),
  batch: z.boolean().optional(),
};

/** POST /webhooks: an endpoint; enabled defaults to true, batch to false. */
export const endpointCreateSchema = z.object(endpointFields).strict();
export type EndpointCreate = z.input<typeof endpointCreateSchema>;

/** PATCH /webhooks/:id: any of the same fields; headers replace the whole set (a masked value keeps the stored one). */
export const endpointUpdateSchema = z.object(endpointFields).partial().strict();
export type EndpointUpdate = z.input<typeof endpointUpdateSchema>;

/** POST /webhooks/:id/replay: every event of the endpoint's types since then (within the stream's 30 days). */
export const replaySinceSchema = z.object({ since: z.iso.datetime({ offset: true, error: WEBHOOK_MESSAGES.since }) }).strict();

/** GET /webhooks/:id/deliveries: newest first; `before` is the event sequence the previous page ended at. */
export const deliveriesQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  state: z.enum(DELIVERY_STATES, { error: WEBHOOK_MESSAGES.state }).optional(),
  limit: z.coerce.number().int().min(1).max(DELIVERIES_PAGE_MAX).default(50),
});

/**
 * An endpoint's standing, for the console's badge: `active`; `failing` (every attempt since failing_since failed);
 * `disabled` (the platform turned it off: disabled_reason says why); `off` (its owner turned it off).
 */
export const ENDPOINT_STATES = ['active', 'failing', 'disabled', 'off'] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];

export const endpointSchema = answer({
  id: whole(),
  url: z.string(),
  description: z.string().nullable(),
  event_types: z.array(z.enum(ENDPOINT_EVENT_TYPES)),
  headers: z.record(z.string(), z.string()).describe(`The custom headers' names; every value reads ${HEADER_VALUE_MASK}`),
  enabled: z.boolean(),
  batch: z.boolean(),
  state: z.enum(ENDPOINT_STATES),
  disabled_reason: z.enum(ENDPOINT_DISABLED_REASONS).nullable(),
  disabled_at: moment().nullable(),
  failing_since: moment().nullable(),
  previous_secret_until: moment().nullable().describe('Until when the secret before the last rotation still signs beside the new one'),
  ...stampsShape,
});
export type Endpoint = z.infer<typeof endpointSchema>;

/** The answer to create and rotate-secret: the signing secret, shown this once. */
export const endpointWithSecretSchema = endpointSchema.extend({ secret: z.string().describe('whsec_ and base64: shown once, never again') });
export type EndpointWithSecret = z.infer<typeof endpointWithSecretSchema>;

/** POST /webhooks/:id/test: the receiver's status (null when none came), the time taken and the error, if any. */
export const endpointTestResultSchema = answer({ status: whole().nullable(), ms: whole(), error: z.string().nullable() });
export type EndpointTestResult = z.infer<typeof endpointTestResultSchema>;
