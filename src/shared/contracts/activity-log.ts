import { z } from 'zod';
import { answer, moment, whole } from '../answer-schema';
import { atMostCharacters } from '../messages';

// The activity log: one row per changed field of each create, update or delete a person (or an organisation API key)
// made, and a row for each export of a contact's data (field 'format'). Read-only.

export const ACTIVITY_ACTIONS = ['create', 'update', 'delete', 'export', 'erase'] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export const activityLogEntrySchema = answer({
  id: whole(),
  entity: z.string().describe('Entity name as in the API path: tag, field, contact, subscription, blacklist, ...'),
  entity_id: whole().nullable().describe('Null for a bulk delete (its ids are in previous_value)'),
  action: z.enum(ACTIVITY_ACTIONS),
  field: z.string(),
  previous_value: z.string().nullable().describe('Text, or JSON for lists and objects; null when absent'),
  new_value: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
  device: z.string().nullable(),
  user_id: whole().nullable(),
  user_name: z.string().nullable().describe('The name of the user who made the change; null when a key did (or the user is gone)'),
  api_key_id: whole().nullable().describe('The organisation API key that made the change; null when a person did'),
  api_key_name: z.string().nullable().describe("That key's name"),
  created_at: moment(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

/**
 * GET /activity-log filters, besides the shared list parameters (sort_by created_at or id, default created_at
 * desc; search looks through entity, field and both values): `entity=contact`, `entity_id=12`.
 */
export const activityLogFilterShape = {
  entity: z.string().trim().min(1).max(50, atMostCharacters(50)).optional(),
  entity_id: z.coerce.number({ error: 'entity_id must be a whole number' }).int('entity_id must be a whole number').positive().optional(),
};
