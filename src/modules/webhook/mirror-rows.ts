import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { MirrorChange } from './ledger-side';

/**
 * The organisation's endpoints as its ledgers mirror them, read from D1: what a ledger made after they were created
 * copies in (registry.ts makeLedger -> OrgLedger.loadWebhookEndpoints), since mirrorEndpoint reached only the ledgers
 * that existed then.
 */
export async function endpointMirrors(db: Database, orgId: number): Promise<MirrorChange[]> {
  const rows = await db
    .select({
      id: webhookEndpoints.id,
      eventTypes: webhookEndpoints.eventTypes,
      enabled: webhookEndpoints.enabled,
      batch: webhookEndpoints.batch,
      since: webhookEndpoints.createdAt,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, orgId));
  return rows.map((row) => ({ id: row.id, eventTypes: [...row.eventTypes], enabled: row.enabled, batch: row.batch, since: row.since }));
}

/** Whether the ledger's mirror was filled from D1 once (ledger step 14's webhook_mirror_loaded). */
export const webhookMirrorLoaded = (sql: SqlStorage): boolean => sql.exec('SELECT 1 FROM webhook_mirror_loaded').toArray().length > 0;

export function markWebhookMirrorLoaded(sql: SqlStorage, now: number): void {
  sql.exec('INSERT OR REPLACE INTO webhook_mirror_loaded (id, at) VALUES (1, ?)', now);
}
