import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { activityLog } from '../../../db/schema';
import type { ExportSubject } from './export-subject';

/** Log rows per read. */
const PAGE = 500;

/**
 * The activity-log entries about the contact: those of the contact itself, and those of other entities (the
 * blacklist, ...) whose previous or new value is one of its addresses. Paged by id, so a long log is never held
 * whole. The values have no index: a page scans the organisation's log from the last id on.
 */
export async function* activityEntries(db: Database, subject: ExportSubject): AsyncGenerator<unknown> {
  const values = JSON.stringify(subject.addresses.map((a) => a.value));
  const about = or(
    and(eq(activityLog.entity, 'contact'), eq(activityLog.entityId, subject.contactId)),
    sql`${activityLog.previousValue} IN (SELECT value FROM json_each(${values}))`,
    sql`${activityLog.newValue} IN (SELECT value FROM json_each(${values}))`,
  );
  let after = 0;
  for (;;) {
    const rows = await db
      .select({
        id: activityLog.id,
        entity: activityLog.entity,
        entity_id: activityLog.entityId,
        action: activityLog.action,
        field: activityLog.field,
        previous_value: activityLog.previousValue,
        new_value: activityLog.newValue,
        user_id: activityLog.userId,
        api_key_id: activityLog.apiKeyId,
        browser: activityLog.browser,
        os: activityLog.os,
        device: activityLog.device,
        created_at: activityLog.createdAt,
      })
      .from(activityLog)
      .where(and(eq(activityLog.orgId, subject.orgId), gt(activityLog.id, after), about))
      .orderBy(asc(activityLog.id))
      .limit(PAGE);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].id;
  }
}
