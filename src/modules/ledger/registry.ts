import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { OrgLedger } from './org-ledger';
import { blockOf } from './ids';
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
 * The organisation's first ledger (generation 0), made on first use; null when the organisation does not exist. It
 * holds the organisation-wide state (the send gates) and the messages made before the ledgers (block 0 of the ids).
 * A new ledger is registered first (with its block of message ids, ids.ts), then initialised, then marked ready; a
 * use that finds it registered but not ready (the first use died part-way) initialises it again, which changes
 * nothing that was done.
 */
export async function orgLedger(env: Env, db: Database, orgId: number): Promise<LedgerHandle | null> {
  const [row] = await db.all<{ key: string | null; name: string | null; ready: number | null }>(sql`
    SELECT o.ledger_key AS key, l.name AS name, l.ready AS ready FROM organizations o
    LEFT JOIN ledgers l ON l.org_id = o.id AND l.generation = 0
    WHERE o.id = ${orgId}`);
  if (!row) return null;
  if (row.key && row.name && row.ready) return { owner: { orgId, key: row.key, generation: 0 }, stub: ledgerStub(env, row.name) };
  return makeLedger(env, db, orgId, 0);
}

/**
 * Registers, initialises and marks ready the organisation's ledger of `generation` (idempotent: a second call, or
 * one after a first that died part-way, finishes what is left). Null when the organisation does not exist.
 */
async function makeLedger(env: Env, db: Database, orgId: number, generation: number): Promise<LedgerHandle | null> {
  const readKey = () => db.all<{ key: string | null }>(sql`SELECT ledger_key AS key FROM organizations WHERE id = ${orgId}`);
  let [row] = await readKey();
  if (!row) return null;
  if (!row.key) {
    // Two first uses at once: the one whose key lands wins, the other reads it.
    await db.run(sql`UPDATE organizations SET ledger_key = ${newLedgerKey()} WHERE id = ${orgId} AND ledger_key IS NULL`);
    [row] = await readKey();
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
  // After `ready`: an endpoint created meanwhile is either mirrored by its route (which now finds this ledger) or read here.
  served(await stub.loadWebhookEndpoints(owner));
  // The organisation went while it was being made: its registry row went with it (and queued it for the drainer);
  // empty it now in case the drainer came first.
  const [still] = await db.all<{ name: string }>(sql`SELECT name FROM ledgers WHERE name = ${name} AND org_id = ${orgId}`);
  if (!still) {
    served(await stub.destroy(owner));
    return null;
  }
  return { owner, stub };
}

// Overflow generations: a ledger holds at most 10 GB, so when the size guard finds the organisation's newest past its
// mark it opens the next (size-guard.ts). New broadcasts and single messages go to the newest ready generation; a
// started broadcast stays in the one it started in (broadcasts.ledger_generation); a message is found by its id,
// whose block names its ledger; lists and figures read every generation (request-ledger.ts, crud/merged-list.ts).

export interface RegisteredRow {
  key: string;
  name: string;
  generation: number;
}

/** The handle of a registered ledger's row (read here, or by a caller that folded the read into its own batch). */
export const handleOf = (env: Env, orgId: number, row: RegisteredRow): LedgerHandle => ({
  owner: { orgId, key: row.key, generation: Number(row.generation) },
  stub: ledgerStub(env, row.name),
});

/** The ready ledgers of the organisation matching `where`, newest generation first. */
const readyLedgers = (db: Database, orgId: number, where: SQL) =>
  db.all<RegisteredRow>(sql`
    SELECT o.ledger_key AS key, l.name AS name, l.generation AS generation FROM ledgers l JOIN organizations o ON o.id = l.org_id
    WHERE l.org_id = ${orgId} AND l.ready = 1 AND o.ledger_key IS NOT NULL AND ${where}
    ORDER BY l.generation DESC`);

/** The organisation's ledger of `generation` (0: made on first use); null when it is not registered and ready. */
export async function ledgerAt(env: Env, db: Database, orgId: number, generation: number): Promise<LedgerHandle | null> {
  if (generation === 0) return orgLedger(env, db, orgId);
  const [row] = await readyLedgers(db, orgId, sql`l.generation = ${generation}`);
  return row ? handleOf(env, orgId, row) : null;
}

/**
 * The name and generation of currentLedger's row as a column (JSON) of a caller's own query on the organisation (null
 * until its first is made), so a request that reads the organisation anyway finds its ledger without another round
 * trip (transactional/references.ts); with the organisation's ledger_key, registeredRow makes the row.
 */
export const currentLedgerColumn = (orgId: number) =>
  sql<string | null>`(SELECT json_object('name', l.name, 'generation', l.generation) FROM ledgers l
    WHERE l.org_id = ${orgId} AND l.ready = 1 ORDER BY l.generation DESC LIMIT 1)`;

/** The row of currentLedgerColumn's value and the organisation's ledger_key; null when either is missing. */
export function registeredRow(ledgerKey: string | null, column: string | null): RegisteredRow | null {
  if (!ledgerKey || !column) return null;
  const { name, generation } = JSON.parse(column) as { name: string; generation: number };
  return { key: ledgerKey, name, generation: Number(generation) };
}

/** The organisation's newest ready ledger, where new broadcasts and messages go. */
export async function currentLedger(env: Env, db: Database, orgId: number): Promise<LedgerHandle | null> {
  const [row] = await readyLedgers(db, orgId, sql`true`);
  return row ? handleOf(env, orgId, row) : orgLedger(env, db, orgId);
}

/** Every ready ledger of the organisation, newest first (the first made on first use). */
export async function allLedgers(env: Env, db: Database, orgId: number): Promise<LedgerHandle[]> {
  const rows = await readyLedgers(db, orgId, sql`true`);
  if (rows.some((r) => Number(r.generation) === 0)) return rows.map((r) => handleOf(env, orgId, r));
  const first = await orgLedger(env, db, orgId);
  return first ? [...rows.map((r) => handleOf(env, orgId, r)), first] : [];
}

/**
 * The ledger holding the message `id`: the one whose block of ids it is in; block 0 (made in D1 before the ledgers)
 * is the first generation's. Null when no ledger of the organisation has that block (not its message).
 */
export async function ledgerOfMessage(env: Env, db: Database, orgId: number, id: number): Promise<LedgerHandle | null> {
  const block = blockOf(id);
  if (block === 0) return orgLedger(env, db, orgId);
  const [row] = await readyLedgers(db, orgId, sql`l.id_base = ${block}`);
  return row ? handleOf(env, orgId, row) : null;
}

/** What says where a broadcast lives: started or not, and in which generation (D1's broadcasts row). */
export interface StartedIn {
  orgId: number;
  startedAt: string | null;
  ledgerGeneration: number | null;
}

/**
 * The ledger a broadcast lives in from its start on: the generation it started in (0 for one started before there
 * were generations); before its start, the newest, where it would start now.
 */
export async function broadcastLedger(env: Env, db: Database, b: StartedIn): Promise<LedgerHandle | null> {
  return b.startedAt ? ledgerAt(env, db, b.orgId, b.ledgerGeneration ?? 0) : currentLedger(env, db, b.orgId);
}

/** A drizzle client on the ledger a broadcast lives in (broadcastLedger); null when there is none. */
export async function broadcastLedgerDb(env: Env, db: Database, b: StartedIn): Promise<Database | null> {
  const handle = await broadcastLedger(env, db, b);
  return handle ? ledgerDb(handle) : null;
}

/** The generation new broadcasts start in now, as SQL for the start's own UPDATE: the newest ready one. */
export const newestGeneration = (orgId: number) => sql`(SELECT coalesce(max(generation), 0) FROM ledgers WHERE org_id = ${orgId} AND ready = 1)`;

/**
 * Opens the organisation's next generation after `after` (the size guard's call when `after` nears the limit); a
 * second call for the same `after` finishes or finds the same one. Null when the organisation does not exist.
 */
export async function openNextGeneration(env: Env, db: Database, orgId: number, after: number): Promise<LedgerHandle | null> {
  return makeLedger(env, db, orgId, after + 1);
}

/** A drizzle client on the organisation's first ledger (ledger-db.ts); null when the organisation does not exist. */
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
