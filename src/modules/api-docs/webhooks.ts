import { EVENT_TYPES, type EventType } from '../../shared/contracts/events';
import { eventEnvelopeSchema } from '../../shared/contracts/event-schemas';
import { zodJsonSchema, type Json } from './json-schema';

// The event stream in the OpenAPI document (issue 38): each event type as an OpenAPI 3.1 `webhooks` entry whose body
// is its envelope (src/shared/contracts/event-schemas.ts), one component per type, which GET /events's page names too.

/** `message.sent` as `MessageSent`. */
const pascal = (type: EventType) => type.replace(/(^|[._])(\w)/g, (_, _sep: string, ch: string) => ch.toUpperCase());

/** The component name of the envelope of `type`: EventMessageSent. */
export const eventComponentName = (type: EventType) => `Event${pascal(type)}`;

const ref = (type: EventType) => ({ $ref: `#/components/schemas/${eventComponentName(type)}` });

/** The envelope component of every type, and EventsPage: GET /events's answer. */
export function eventComponents(): Record<string, Json> {
  const envelopes = Object.fromEntries(EVENT_TYPES.map((type) => [eventComponentName(type), zodJsonSchema(eventEnvelopeSchema(type), 'output')]));
  return {
    ...envelopes,
    EventsPage: {
      type: 'object',
      required: ['data', 'next_cursor', 'has_more'],
      properties: {
        data: { type: 'array', items: { oneOf: EVENT_TYPES.map(ref) }, description: 'The events, oldest first' },
        next_cursor: { type: 'string', description: 'Pass as `after` for the next page; also when has_more is false, to poll for newer events' },
        has_more: { type: 'boolean', description: 'Whether more events are there now' },
      },
    },
  };
}

/** The `webhooks` object: what an endpoint subscribed to each type receives (signed the Standard Webhooks way). */
export function webhooksObject(): Record<string, Json> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          tags: ['events'],
          summary: `The ${type} event`,
          description:
            'Delivered to each enabled endpoint subscribed to the type, signed: headers webhook-id (the event id), webhook-timestamp and webhook-signature (Standard Webhooks). An endpoint that takes batches receives an array of up to 100 events.',
          operationId: `event${pascal(type)}`,
          requestBody: { required: true, content: { 'application/json': { schema: ref(type) } } },
          responses: {
            '200': { description: 'Any 2xx: delivered' },
            '410': { description: 'Gone: the endpoint is disabled' },
            default: { description: 'Anything else: retried with growing delays' },
          },
        },
      },
    ]),
  );
}
