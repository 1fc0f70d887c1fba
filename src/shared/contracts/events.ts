// The organisation's event stream (issue 38): every type, as the pull API (GET /api/v1/events) and the webhooks
// deliver them. Each event is `{ id, type, version, timestamp, data }`; the zod schema of each type's data, versioned,
// is in src/shared/contracts/event-schemas.ts (and in the OpenAPI document's `webhooks`). Where each is recorded:
// the ledger's triggers (ledger step 14) for messages, tracking hits and broadcasts; D1's (migration 0029) for
// contacts, unsubscribes, suppressions and SMS opt-outs; the inbound SMS route for sms.received.

export const MESSAGE_EVENT_TYPES = ['message.sent', 'message.failed', 'message.bounced', 'message.complained', 'message.opened', 'message.clicked'] as const;

export const CONTACT_EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.deleted',
  'contact.unsubscribed',
  'contact.resubscribed',
  'contact.subscribed',
  'contact.suppressed',
  'contact.unsuppressed',
] as const;

export const SMS_EVENT_TYPES = ['sms.delivered', 'sms.undelivered', 'sms.received', 'sms.opted_out', 'sms.opted_in'] as const;

export const BROADCAST_EVENT_TYPES = ['broadcast.started', 'broadcast.paused', 'broadcast.resumed', 'broadcast.finished', 'broadcast.cancelled'] as const;

export const EVENT_TYPES = [...MESSAGE_EVENT_TYPES, ...CONTACT_EVENT_TYPES, ...SMS_EVENT_TYPES, ...BROADCAST_EVENT_TYPES] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The envelope's version: bumped (and both kept for a while) when a type's data changes incompatibly. */
export const EVENT_VERSION = 1;

/** Not in the stream: what the console's "Send test event" delivers to one endpoint. */
export const TEST_EVENT_TYPE = 'webhook.test';

export interface StreamEvent {
  /** 'evt_' and 32 hex digits; the deliveries' webhook-id. */
  id: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  version: number;
  /** When the change happened (ISO 8601). */
  timestamp: string;
  data: Record<string, unknown>;
}
