// The webhooks' limits and validation messages, without zod: the console's message keys (web/src/lib/message-keys.ts)
// read these in its first bundle, and the schemas (webhook.ts) would bring all of zod's webhook contract with them.

/** A delivery's state: waiting for its (next) attempt, on its way, delivered, or held while its endpoint is off. */
export const DELIVERY_STATES = ['pending', 'sending', 'delivered', 'paused'] as const;
/** An organisation keeps at most this many endpoints (one more is refused with 409 `limit`). */
export const ENDPOINTS_PER_ORG_MAX = 20;
/** Custom headers per endpoint, and the longest value one may hold. */
export const ENDPOINT_HEADERS_MAX = 10;
export const ENDPOINT_HEADER_VALUE_MAX = 1000;

export const WEBHOOK_MESSAGES = {
  url: 'Must be an https address such as https://example.com/webhooks',
  description: 'At most 500 characters',
  eventTypes: 'Choose at least one event type',
  eventType: 'Unknown event type',
  headers: `At most ${ENDPOINT_HEADERS_MAX} headers`,
  headerName: "A header name may hold letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only",
  headerReserved: 'This header is set by the platform',
  headerValue: `A header value is at most ${ENDPOINT_HEADER_VALUE_MAX} characters on one line`,
  limit: `An organisation may have at most ${ENDPOINTS_PER_ORG_MAX} webhook endpoints`,
  since: 'Must be a date and time within the last 30 days',
  state: `Must be one of ${DELIVERY_STATES.join(', ')}`,
} as const;
