import { z } from 'zod';
import { atMostCharacters } from '../messages';

// The activity log: one row per changed field of each create, update or delete a person made. Read-only.

export type ActivityAction = 'create' | 'update' | 'delete';

export interface ActivityLogEntry {
  id: number;
  /** Entity name as in the API path: tag, field, contact, subscription, blacklist, ... */
  entity: string;
  /** Null for a bulk delete (its ids are in previous_value). */
  entity_id: number | null;
  action: ActivityAction;
  field: string;
  /** Text, or JSON for lists and objects; null when absent. */
  previous_value: string | null;
  new_value: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  user_id: number | null;
  created_at: string;
}

/**
 * GET /activity-log filters, besides the shared list parameters (sort_by created_at or id, default created_at
 * desc; search looks through entity, field and both values): `entity=contact`, `entity_id=12`.
 */
export const activityLogFilterShape = {
  entity: z.string().trim().min(1).max(50, atMostCharacters(50)).optional(),
  entity_id: z.coerce.number({ error: 'entity_id must be a whole number' }).int('entity_id must be a whole number').positive().optional(),
};
