import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createDb } from '../../db/client';
import { integrations, senders } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import { ApiError } from '../../lib/api-error';
import { INTEGRATION_MESSAGES, type IntegrationSyncResult } from '../../shared/contracts/integration';
import { providerAccount, type IntegrationRow, type StoredDetails } from './account';
import { providers as defaultProviders, type Providers } from './providers';
import { PHONE_PATTERN } from '../../shared/address';

// POST /integration/{id}/sync: the row turns `merging` and a message goes on the events queue; the consumer
// fetches the Twilio account's numbers, adds the missing ones as phone senders (when should_merge is set) and
// turns the row `active` again, recording how it went, also when it failed.

export const SYNC_KIND = 'integration-sync';

export type SyncMessage = {
  kind: typeof SYNC_KIND;
  orgId: number;
  integrationId: number;
};

/** Marks the integration merging (refused with 409 while it already is) and queues the sync. */
export async function requestSync(db: Database, env: Env, orgId: number, integrationId: number): Promise<IntegrationRow> {
  const scope = new TenantScope(db, integrations, orgId);
  const now = new Date().toISOString();
  const [claimed] = await scope.update(and(eq(integrations.id, integrationId), eq(integrations.status, 'active'))!, { status: 'merging', updatedAt: now });
  if (!claimed) throw new ApiError(409, 'conflict', INTEGRATION_MESSAGES.syncRunning);
  const message: SyncMessage = { kind: SYNC_KIND, orgId, integrationId };
  try {
    await env.EVENTS_QUEUE.send(message);
  } catch (error) {
    await scope.update(eq(integrations.id, integrationId), { status: 'active' });
    throw error;
  }
  return claimed as IntegrationRow;
}

// Rows per INSERT: 7 bound values each, under D1's 100 parameters per statement.
const INSERT_CHUNK = 14;

/** Adds the numbers not yet senders of this integration as phone senders, last in the order; returns how many were added. */
export async function mergePhoneSenders(db: Database, orgId: number, integrationId: number, numbers: string[]): Promise<number> {
  const scope = new TenantScope(db, senders, orgId);
  const unique = [...new Set(numbers.map((n) => n.trim()).filter((n) => PHONE_PATTERN.test(n)))];
  if (unique.length === 0) return 0;
  const [{ top }] = await db
    .select({ top: sql<number>`COALESCE(MAX(${senders.priority}), 0)` })
    .from(senders)
    .where(scope.where());
  let added = 0;
  for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
    const rows = unique.slice(i, i + INSERT_CHUNK).map((value, j) => ({
      orgId,
      integrationId,
      type: 'phone',
      value,
      priority: top + i + j + 1,
    }));
    // The unique index (org, integration, type, value) makes a retried sync add nothing twice.
    const inserted = await db.insert(senders).values(rows).onConflictDoNothing().returning({ id: senders.id });
    added += inserted.length;
  }
  return added;
}

/** The events-queue consumer of 'integration-sync'. `deps` lets tests stand in for the provider. */
export async function runIntegrationSync(env: Env, body: SyncMessage, deps: Pick<Providers, 'listPhoneNumbers'> = defaultProviders): Promise<void> {
  if (!Number.isSafeInteger(body.orgId) || !Number.isSafeInteger(body.integrationId)) throw new Error('malformed integration-sync message');
  const db = createDb(env.DB);
  const scope = new TenantScope(db, integrations, body.orgId);
  const row = await scope.findById(body.integrationId);
  // Deleted meanwhile, or already finished by an earlier delivery of this message.
  if (row?.status !== 'merging') return;

  const result: IntegrationSyncResult = { finished_at: '', numbers_found: null, senders_added: null, error: null };
  try {
    const account = await providerAccount(env, row);
    if (account.type !== 'twilio') throw new Error(INTEGRATION_MESSAGES.syncSmtp);
    const numbers = await deps.listPhoneNumbers(account, env);
    result.numbers_found = numbers.length;
    result.senders_added = row.shouldMerge ? await mergePhoneSenders(db, body.orgId, row.id, numbers) : 0;
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.finished_at = new Date().toISOString();
  // Re-read the details so a credentials change made during the sync is kept.
  const current = await scope.findById(row.id);
  if (!current) return;
  await scope.update(eq(integrations.id, row.id), {
    status: 'active',
    details: { ...(current.details as StoredDetails), last_sync: result },
    updatedAt: result.finished_at,
  });
}
