import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { activityLog } from '../../db/schema';
import { activityLogFilterShape, type ActivityAction, type ActivityLogEntry } from '../../shared/contracts/activity-log';
import { crudRoutes } from '../crud/crud-routes';

/** /activity-log: the organisation's change log, read-only (list and read), newest first. */
export const activityLogRoutes = crudRoutes<typeof activityLog, Record<string, never>, ActivityLogEntry>({
  table: activityLog,
  // Nothing is ever written through this route; the contract still wants a body schema.
  input: z.object({}).strict(),
  only: ['list', 'read'],
  sortable: { created_at: activityLog.createdAt, id: activityLog.id },
  defaultSort: { key: 'created_at', order: 'desc' },
  search: [activityLog.entity, activityLog.field, activityLog.previousValue, activityLog.newValue],
  filters: {
    shape: activityLogFilterShape,
    where: (filter) => [
      typeof filter.entity === 'string' ? eq(activityLog.entity, filter.entity) : undefined,
      typeof filter.entity_id === 'number' ? eq(activityLog.entityId, filter.entity_id) : undefined,
    ],
  },
  present: (_c, rows) =>
    rows.map((row) => ({
      id: row.id,
      entity: row.entity,
      entity_id: row.entityId,
      action: row.action as ActivityAction,
      field: row.field,
      previous_value: row.previousValue,
      new_value: row.newValue,
      browser: row.browser,
      os: row.os,
      device: row.device,
      user_id: row.userId,
      created_at: row.createdAt,
    })),
});
