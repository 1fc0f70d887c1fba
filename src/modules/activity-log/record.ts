import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { activityLog } from '../../db/schema';
import { describeClient } from '../../lib/user-agent';
import type { ActivityAction } from '../../shared/contracts/activity-log';

export type Action = ActivityAction;

/** Fields that change on their own or say nothing to a person reading the log. */
const IGNORED = new Set(['id', 'created_at', 'updated_at', 'priority']);

const text = (value: unknown): string | null => (value === undefined || value === null ? null : typeof value === 'string' ? value : JSON.stringify(value));

/** The changed fields between two versions of an entity (either may be absent for create/delete). */
export function changedFields(before: object | null, after: object | null) {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const changes: { field: string; previous: string | null; next: string | null }[] = [];
  for (const field of keys) {
    if (IGNORED.has(field)) continue;
    const previous = text((before as Record<string, unknown> | null)?.[field]);
    const next = text((after as Record<string, unknown> | null)?.[field]);
    if (previous !== next) changes.push({ field, previous, next });
  }
  return changes;
}

/**
 * Writes one activity-log row per changed field of a change a person made, with their browser, OS and device; a
 * change made with an organisation API key names the key instead of a user.
 */
export async function recordActivity(
  c: Context<AppEnv>,
  entity: string,
  entityId: number | null,
  action: Action,
  changes: { field: string; previous: string | null; next: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  const client = describeClient(c.req.header('user-agent'));
  const rows = changes.map((change) => ({
    orgId: c.var.org.id,
    userId: c.var.auth?.userId ?? null,
    apiKeyId: c.var.auth?.orgKey?.id ?? null,
    entity,
    entityId,
    action,
    field: change.field,
    previousValue: change.previous,
    newValue: change.next,
    ...client,
  }));
  // 14 bound values a row: stay under D1's 100 parameters per statement; all chunks in one round trip.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 7) inserts.push(c.var.db.insert(activityLog).values(rows.slice(i, i + 7)));
  await c.var.db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
}
