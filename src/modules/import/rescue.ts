import { and, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { imports } from '../../db/schema';
import type { Env } from '../../env';
import { IMPORT_JOB_KIND, type ImportJobMessage } from './run-import';

/** A running import writes progress every few seconds; this long without any means its queue message is gone. */
export const STALLED_AFTER_MS = 5 * 60_000;

/**
 * Cron: queues again every import that is new or processing but has not moved for STALLED_AFTER_MS (a
 * continuation that could not be queued, a local `wrangler dev` restart that dropped the in-flight message).
 * Runs are resumable and guarded by the import's cursor, so a rescue of an import that is in fact still
 * running changes nothing. Looks at all organisations: each message carries its own organisation.
 */
export async function rescueStalledImports(db: Database, env: Pick<Env, 'IMPORT_QUEUE'>, now = Date.now()): Promise<number> {
  const stalled = await db
    .select({ id: imports.id, orgId: imports.orgId })
    .from(imports)
    .where(and(inArray(imports.status, ['new', 'processing']), lt(imports.updatedAt, new Date(now - STALLED_AFTER_MS).toISOString())))
    .limit(100);
  if (stalled.length) {
    await env.IMPORT_QUEUE.sendBatch(
      stalled.map((row) => ({ body: { kind: IMPORT_JOB_KIND, orgId: row.orgId, importId: row.id } satisfies ImportJobMessage })),
    );
  }
  return stalled.length;
}
