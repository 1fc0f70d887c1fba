import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { activityLog, orgApiKeys, users } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { activityLogFilterShape, type ActivityAction, type ActivityLogEntry } from '../../shared/contracts/activity-log';
import { crudRoutes } from '../crud/crud-routes';

type LogRow = typeof activityLog.$inferSelect;

/** Names by id of the users and organisation keys a page of the log names (two small reads, both by the page's ids). */
async function actorNames(c: Context<AppEnv>, rows: LogRow[]): Promise<{ users: Map<number, string>; keys: Map<number, string> }> {
  const userIds = [...new Set(rows.flatMap((row) => (row.userId === null ? [] : [row.userId])))];
  const keyIds = [...new Set(rows.flatMap((row) => (row.apiKeyId === null ? [] : [row.apiKeyId])))];
  const userScope = new TenantScope(c.var.db, users, c.var.org.id);
  const keyScope = new TenantScope(c.var.db, orgApiKeys, c.var.org.id);
  const [userRows, keyRows] = await Promise.all([
    userIds.length
      ? c.var.db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(userScope.where(userScope.idIn(userIds)))
      : [],
    keyIds.length
      ? c.var.db
          .select({ id: orgApiKeys.id, name: orgApiKeys.name })
          .from(orgApiKeys)
          .where(keyScope.where(keyScope.idIn(keyIds)))
      : [],
  ]);
  return { users: new Map(userRows.map((u) => [u.id, u.name])), keys: new Map(keyRows.map((k) => [k.id, k.name])) };
}

/** /activity-log: the organisation's change log, read-only (list and read), newest first; who made each change by name. */
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
  present: async (c, rows) => {
    const names = await actorNames(c, rows);
    return rows.map((row) => ({
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
      user_name: row.userId === null ? null : (names.users.get(row.userId) ?? null),
      api_key_id: row.apiKeyId,
      api_key_name: row.apiKeyId === null ? null : (names.keys.get(row.apiKeyId) ?? null),
      created_at: row.createdAt,
    }));
  },
});
