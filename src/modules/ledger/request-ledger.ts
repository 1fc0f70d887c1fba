import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { ApiError } from '../../lib/api-error';
import { ledgerDb } from './ledger-db';
import { allLedgers, broadcastLedger, currentLedger, ledgerOfMessage, type LedgerHandle, type StartedIn } from './registry';

// A request's ways to its organisation's ledgers (the messages, tracking and started broadcasts' state), each looked
// up in the registry once per request, on first use: the newest (where new messages go), all of them (lists and
// figures), the one a message id names, the one a broadcast lives in.

const perRequest = new WeakMap<object, Map<string, Promise<unknown>>>();

function once<T>(c: Context<AppEnv>, key: string, make: () => Promise<T>): Promise<T> {
  let cache = perRequest.get(c);
  if (!cache) perRequest.set(c, (cache = new Map()));
  let value = cache.get(key) as Promise<T> | undefined;
  if (!value) cache.set(key, (value = make()));
  return value;
}

// The organisation exists (the tenant middleware found it), so only a deletion under way finds no ledger.
const gone = () => new ApiError(404, 'not_found', 'This organisation no longer exists');

const clientOf = async (handle: Promise<LedgerHandle | null>): Promise<Database | null> => {
  const h = await handle;
  return h ? ledgerDb(h) : null;
};

/** The organisation's newest ledger: where a new message goes. */
export async function requestCurrentLedger(c: Context<AppEnv>): Promise<LedgerHandle> {
  const handle = await once(c, 'current-handle', () => currentLedger(c.env, c.var.db, c.var.org.id));
  if (!handle) throw gone();
  return handle;
}

/** A drizzle client on the organisation's newest ledger (ledger-db.ts). */
export async function requestLedger(c: Context<AppEnv>): Promise<Database> {
  return once(c, 'current', async () => ledgerDb(await requestCurrentLedger(c)));
}

/** Clients on every ledger of the organisation, newest generation first. */
export async function requestLedgers(c: Context<AppEnv>): Promise<Database[]> {
  const dbs = await once(c, 'all', async () => (await allLedgers(c.env, c.var.db, c.var.org.id)).map(ledgerDb));
  if (dbs.length === 0) throw gone();
  return dbs;
}

/** A client on the ledger holding message `id`; null when no ledger of the organisation has it. */
export function requestMessageLedger(c: Context<AppEnv>, id: number): Promise<Database | null> {
  return once(c, `message:${id}`, () => clientOf(ledgerOfMessage(c.env, c.var.db, c.var.org.id, id)));
}

/** A client on the ledger a broadcast lives in (from its start on; before it, where it would start now). */
export async function requestBroadcastLedger(c: Context<AppEnv>, b: StartedIn): Promise<Database> {
  const db = await once(c, `broadcast:${b.startedAt ? (b.ledgerGeneration ?? 0) : 'new'}`, () => clientOf(broadcastLedger(c.env, c.var.db, b)));
  if (!db) throw gone();
  return db;
}
