import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { webhookEndpoints } from '../../db/schema';
import type { Env } from '../../env';
import { served } from '../ledger/owner';
import { allLedgers } from '../ledger/registry';
import type { MirrorChange } from './ledger-side';

// Every ledger of an organisation keeps a mirror of its endpoints (id, types, on/off, batch: ledger step 14), which the
// trigger making deliveries and the dispatcher read. D1 is the truth; this copies an endpoint's change to the mirrors.

export type MirroredEndpoint = MirrorChange;

/**
 * Sets the endpoint's mirror row in every ledger of the organisation (removes it, with its deliveries, when deleted).
 * Turned off: its pending deliveries pause; on again: the paused become pending, due at once. An endpoint the
 * platform had turned off (410, failing) and that is on again in D1 starts its failing clock afresh.
 */
export async function mirrorEndpoint(env: Env, db: Database, orgId: number, endpoint: MirroredEndpoint): Promise<void> {
  const change: MirrorChange = 'deleted' in endpoint ? { id: endpoint.id, deleted: true } : { ...endpoint, eventTypes: [...endpoint.eventTypes] };
  if (!('deleted' in endpoint) && endpoint.enabled) {
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null, disabledReason: null, disabledAt: null })
      .where(
        and(
          eq(webhookEndpoints.id, endpoint.id),
          eq(webhookEndpoints.orgId, orgId),
          eq(webhookEndpoints.enabled, true),
          isNotNull(webhookEndpoints.disabledReason),
        ),
      );
  }
  const ledgers = await allLedgers(env, db, orgId);
  const now = Date.now();
  await Promise.all(ledgers.map(async (ledger) => served(await ledger.stub.mirrorWebhookEndpoint(ledger.owner, change, now))));
}
