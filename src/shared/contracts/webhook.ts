import { z } from 'zod';
import { EVENT_TYPES } from './events';

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

/** A delivery's state: waiting for its (next) attempt, on its way, delivered, or held while its endpoint is off. */
export const DELIVERY_STATES = ['pending', 'sending', 'delivered', 'paused'] as const;
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
