import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { OrgLedger } from './org-ledger';
import { ledgerDb } from './ledger-db';
import { ledgerName, served, type LedgerOwner } from './owner';

// The way to an organisation's ledger: its key and generation from the D1 registry (the `ledgers` table), never a
// name a client gives. The first use makes the key, initialises the ledger for its owner and records it; a ledger
// whose organisation went meanwhile is emptied again at once, so no call leaves an unregistered ledger behind.

export interface LedgerHandle {
  owner: LedgerOwner;
  stub: DurableObjectStub<OrgLedger>;
}

export const ledgerStub = (env: Pick<Env, 'LEDGER'>, name: string): DurableObjectStub<OrgLedger> => env.LEDGER.get(env.LEDGER.idFromName(name));

/** A new random ledger key: 128 bits, hex. */
const newLedgerKey = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The organisation's ledger (its first generation, which holds the organisation-wide state such as the send
 * gates), made on first use; null when the organisation does not exist. A new ledger is registered first (with its
 * block of message ids, ids.ts), then initialised, then marked ready; a use that finds it registered but not ready
 * (the first use died part-way) initialises it again, which changes nothing that was done.
 */
export async function orgLedger(env: Env, db: Database, orgId: number): Promise<LedgerHandle | null> {
  const generation = 0;
  const read = () =>
    db.all<{ key: string | null; name: string | null; ready: number | null }>(sql`
      SELECT o.ledger_key AS key, l.name AS name, l.ready AS ready FROM organizations o
      LEFT JOIN ledgers l ON l.org_id = o.id AND l.generation = ${generation}
      WHERE o.id = ${orgId}`);
  let [row] = await read();
  if (!row) return null;
  if (row.key && row.name && row.ready) return { owner: { orgId, key: row.key, generation }, stub: ledgerStub(env, row.name) };

  if (!row.key) {
    // Two first uses at once: the one whose key lands wins, the other reads it.
    await db.run(sql`UPDATE organizations SET ledger_key = ${newLedgerKey()} WHERE id = ${orgId} AND ledger_key IS NULL`);
    [row] = await read();
    if (!row?.key) return null;
  }
  const owner: LedgerOwner = { orgId, key: row.key, generation };
  const name = ledgerName(row.key, generation);
  // One statement each: D1 runs them one at a time, so two registrations never take the same block.
  const nextBlock = sql`(SELECT coalesce(max(id_base), 0) + 1 FROM ledgers)`;
  await db.run(sql`
    INSERT OR IGNORE INTO ledgers (name, org_id, generation, id_base)
    SELECT ${name}, id, ${generation}, ${nextBlock} FROM organizations WHERE id = ${orgId}`);
  await db.run(sql`UPDATE ledgers SET id_base = ${nextBlock} WHERE name = ${name} AND id_base IS NULL`);
  const [registered] = await db.all<{ idBase: number }>(sql`SELECT id_base AS idBase FROM ledgers WHERE name = ${name} AND org_id = ${orgId}`);
  if (!registered) return null;
  const stub = ledgerStub(env, name);
  served(await stub.init(owner, Number(registered.idBase)));
  await db.run(sql`UPDATE ledgers SET ready = 1 WHERE name = ${name}`);
  // The organisation went while it was being made: its registry row went with it (and queued it for the drainer);
  // empty it now in case the drainer came first.
  const [still] = await db.all<{ name: string }>(sql`SELECT name FROM ledgers WHERE name = ${name} AND org_id = ${orgId}`);
  if (!still) {
    served(await stub.destroy(owner));
    return null;
  }
  return { owner, stub };
}

/** A drizzle client on the organisation's ledger (ledger-db.ts); null when the organisation does not exist. */
export async function orgLedgerDb(env: Env, db: Database, orgId: number): Promise<Database | null> {
  const handle = await orgLedger(env, db, orgId);
  return handle ? ledgerDb(handle) : null;
}

/** A drizzle client on a ledger the registry lists (its name and organisation), as the crons walk them; null for a malformed name. */
export function registeredLedgerDb(env: Pick<Env, 'LEDGER'>, name: string, orgId: number): Database | null {
  const owner = ownerOfName(name, orgId);
  return owner ? ledgerDb({ owner, stub: ledgerStub(env, name) }) : null;
}

/** The owner a registered ledger name stands for (`<key>:g<generation>`). */
export function ownerOfName(name: string, orgId: number): LedgerOwner | null {
  const match = /^([0-9a-f]{32}):g(\d+)$/.exec(name);
  return match ? { orgId, key: match[1], generation: Number(match[2]) } : null;
}
