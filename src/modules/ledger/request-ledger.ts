import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { ApiError } from '../../lib/api-error';
import { orgLedgerDb } from './registry';

// A request's way to its organisation's ledger (the messages, tracking and started broadcasts' state): looked up in
// the registry once per request, on first use.

const perRequest = new WeakMap<object, Promise<Database | null>>();

/** A drizzle client on the request's organisation's ledger (ledger-db.ts). */
export async function requestLedger(c: Context<AppEnv>): Promise<Database> {
  let ledger = perRequest.get(c);
  if (!ledger) {
    ledger = orgLedgerDb(c.env, c.var.db, c.var.org.id);
    perRequest.set(c, ledger);
  }
  const db = await ledger;
  // The organisation exists (the tenant middleware found it), so only a deletion under way gets here.
  if (!db) throw new ApiError(404, 'not_found', 'This organisation no longer exists');
  return db;
}
