import type { z } from 'zod';
import { ADDRESS_TYPES } from '../../shared/address';
import { BROADCAST_ACTIONS, BROADCAST_STATUSES, BROADCAST_TYPES, recipientsSchema } from '../../shared/contracts/broadcast';
import { FIELD_TYPES } from '../../shared/contracts/field';
import { IMPORT_STATUSES, importMappingEntrySchema } from '../../shared/contracts/import';
import { INTEGRATION_STATUSES, INTEGRATION_TYPES } from '../../shared/contracts/integration';
import { DELIVERY_STATUSES, MESSAGE_STATUSES, MESSAGE_TYPES } from '../../shared/contracts/message';
import { SENDER_TYPES } from '../../shared/contracts/sender';
import { TEMPLATE_TYPES } from '../../shared/contracts/template';
import { bool, int, num, str, time, zodJsonSchema, type Json } from './json-schema';

// JSON Schemas of the entities the API answers (the TypeScript interfaces of src/shared/contracts: Tag, Field,
// Contact, ...), so a client generated from /api/openapi.json has typed answers. Keep them in step with those
// interfaces: test/worker/api-docs checks real answers against them, and test/api-client typechecks a program
// against a client generated from the document.

const nullable = (schema: Json): Json => ({ anyOf: [schema, { type: 'null' }] });
const array = (items: Json): Json => ({ type: 'array', items });
const oneOf = (values: readonly string[]): Json => ({ type: 'string', enum: [...values] });

/** An object whose properties are all present (a value may still be null where its schema says so). */
function object(properties: Record<string, Json>, description?: string): Json {
  return { type: 'object', ...(description ? { description } : {}), required: Object.keys(properties), properties };
}

/** The same object without some properties (list rows leave the large bodies out). */
function without(schema: Json, ...omitted: string[]): Json {
  const properties = Object.fromEntries(Object.entries(schema.properties as Record<string, Json>).filter(([key]) => !omitted.includes(key)));
  return object(properties, schema.description as string | undefined);
}

/** A zod contract as the JSON the server stores and answers (defaults applied). */
const answerOf = (schema: z.ZodType): Json => zodJsonSchema(schema, 'output');

const stamps = { created_at: time, updated_at: time };
const named = (extra: Record<string, Json> = {}) => object({ id: int, name: str, ...extra });

const template = object({
  id: int,
  type: oneOf(TEMPLATE_TYPES),
  name: str,
  alias: nullable(str),
  note: nullable(str),
  subject: nullable(str),
  body: str,
  body_plain: nullable(str),
  attachments: array(object({ id: int, file_name: str, size: int, content_type: str })),
  ...stamps,
});

const message = object({
  id: int,
  type: oneOf(MESSAGE_TYPES),
  status: oneOf(MESSAGE_STATUSES),
  is_test: bool,
  sender_id: nullable(int),
  template_id: nullable(int),
  contact_id: nullable(int),
  broadcast_id: nullable(int),
  from_address: str,
  from_name: nullable(str),
  to_address: str,
  subject: nullable(str),
  body: str,
  body_plain: nullable(str),
  html: bool,
  delayed_at: nullable(time),
  sent_at: nullable(time),
  external_id: nullable(str),
  error: nullable(str),
  attempts: int,
  opens_total: int,
  opens_unique: int,
  opened_at: nullable(time),
  clicks_total: int,
  clicks_unique: int,
  clicked_at: nullable(time),
  human_opens: int,
  human_opened_at: nullable(time),
  human_clicks: int,
  human_clicked_at: nullable(time),
  delivery_status: nullable(oneOf(DELIVERY_STATUSES)),
  delivery_error_code: nullable(str),
  ...stamps,
});

const engagement = object({
  opens: int,
  opens_unique: int,
  human_opens: int,
  human_opens_unique: int,
  clicks: int,
  clicks_unique: int,
  human_clicks: int,
  human_clicks_unique: int,
  unsubscribes: int,
});

/** Entity answers by component name. */
export const ENTITY_SCHEMAS = {
  Tag: object({ id: int, name: str, priority: int, ...stamps }),
  Subscription: object({ id: int, name: str, priority: int, ...stamps }),
  Field: object({
    id: int,
    name: str,
    alias: str,
    type: oneOf(FIELD_TYPES),
    priority: int,
    options: array(object({ id: int, value: str })),
    ...stamps,
  }),
  Contact: object({
    id: int,
    name: str,
    note: nullable(str),
    addresses: array(object({ id: int, type: oneOf(ADDRESS_TYPES), value: str })),
    tags: array(named()),
    attributes: array(
      object({
        field_id: int,
        value: { anyOf: [num, str, bool, object({ option_id: int }), array(object({ option_id: int }))], description: 'As the field type: number, text, boolean, one option or several' },
      }),
    ),
    blacklisted_addresses: { ...array(int), description: 'Ids of the addresses that are on the blacklist' },
    ...stamps,
  }),
  BlacklistEntry: object({ id: int, type: oneOf(ADDRESS_TYPES), value: str, info: nullable(str), created_at: time }),
  ActivityLogEntry: object({
    id: int,
    entity: str,
    entity_id: nullable(int),
    action: oneOf(['create', 'update', 'delete']),
    field: str,
    previous_value: nullable(str),
    new_value: nullable(str),
    browser: nullable(str),
    os: nullable(str),
    device: nullable(str),
    user_id: nullable(int),
    created_at: time,
  }),
  Import: object({
    id: int,
    file_name: str,
    file_size: int,
    status: oneOf(IMPORT_STATUSES),
    skip_first_line: bool,
    mapping: array(answerOf(importMappingEntrySchema)),
    created_count: int,
    updated_count: int,
    rejected_count: int,
    rejections: nullable(array(object({ row: int, reason: str }))),
    processed_bytes: int,
    processed_rows: int,
    error: nullable(str),
    ...stamps,
    finished_at: nullable(time),
  }),
  Integration: object({
    id: int,
    name: str,
    type: oneOf(INTEGRATION_TYPES),
    status: oneOf(INTEGRATION_STATUSES),
    note: nullable(str),
    should_merge: bool,
    priority: int,
    max_rate: nullable(int),
    details: {
      anyOf: [
        object({ server: str, port: int, ssl: bool, tls: bool, domain: nullable(str), return_path: nullable(str), user: str }, 'SMTP: never the password'),
        object({ sid: str }, 'Twilio: the account SID, never the token'),
      ],
    },
    last_sync: nullable(object({ finished_at: time, numbers_found: nullable(int), senders_added: nullable(int), error: nullable(str) })),
    ...stamps,
  }),
  Sender: object({
    id: int,
    integration_id: int,
    integration: nullable(named({ type: oneOf(INTEGRATION_TYPES) })),
    type: oneOf(SENDER_TYPES),
    value: str,
    name: nullable(str),
    note: nullable(str),
    priority: int,
    ...stamps,
  }),
  Template: template,
  TemplateListItem: without(template, 'body', 'body_plain'),
  Campaign: object({
    id: int,
    name: str,
    alias: nullable(str),
    note: nullable(str),
    settings: array(
      object({
        template_id: int,
        sender_id: int,
        to_address: nullable(str),
        template: nullable(named({ type: oneOf(TEMPLATE_TYPES) })),
        sender: nullable(object({ id: int, value: str, name: nullable(str), type: oneOf(SENDER_TYPES) })),
      }),
    ),
    ...stamps,
  }),
  Message: message,
  MessageListItem: without(message, 'body', 'body_plain', 'html'),
  Broadcast: object({
    id: int,
    status: oneOf(BROADCAST_STATUSES),
    total: int,
    recipients_final: bool,
    sent: int,
    failed: int,
    skipped: int,
    started_at: nullable(time),
    finished_at: nullable(time),
    paused_reason: nullable(str),
    held_until: nullable(time),
    expected_finish_at: nullable(time),
    updated_at: time,
    engagement,
    name: str,
    alias: nullable(str),
    note: nullable(str),
    type: oneOf(BROADCAST_TYPES),
    sender_id: nullable(int),
    template_id: nullable(int),
    subscription_id: nullable(int),
    do_not_unsubscribe: bool,
    skip_unsubscribed: bool,
    track_opens: bool,
    track_clicks: bool,
    sleep: int,
    delayed_at: nullable(time),
    immediate: bool,
    contacts: answerOf(recipientsSchema),
    opens: int,
    clicks: int,
    unsubscribes: int,
    sender: nullable(object({ id: int, value: str, name: nullable(str) })),
    template: nullable(named({ type: oneOf(TEMPLATE_TYPES) })),
    subscription: nullable(named()),
    actions: array(oneOf(BROADCAST_ACTIONS)),
    created_at: time,
  }),
} satisfies Record<string, Json>;

export type EntitySchema = keyof typeof ENTITY_SCHEMAS;
