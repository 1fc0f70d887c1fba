import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { served } from './owner';
import { ledgerStub, openNextGeneration, ownerOfName } from './registry';

// The size guard: a Durable Object's SQLite storage holds at most 10 GB, and a ledger that reaches it fails every
// write. The housekeeping cron measures the ledgers (each at most once an hour) and records the size in the
// registry; one past LEDGER_WARN_BYTES is logged as a warning on every measurement and listed by the operator API
// (GET /operator/ledgers) before it is full, and when it is its organisation's newest the next generation is opened
// (registry.ts): new broadcasts and messages go there, while the broadcasts running in the full one finish in it and
// retention empties it over time. At 80 % there are about 2 GB left: days of sending at the ledger's own rate.

export const LEDGER_LIMIT_BYTES = 10 * 1024 ** 3;
/** Told to the operator from here: 80 % of the limit. */
export const LEDGER_WARN_BYTES = Math.floor(LEDGER_LIMIT_BYTES * 0.8);
const MEASURE_EVERY = '-1 hour';
const MEASURE_BATCH = 200;

/** Measures the ledgers not measured in the last hour (up to MEASURE_BATCH); answers how many it measured. */
export async function measureLedgers(env: Env, db: Database, warnBytes = LEDGER_WARN_BYTES): Promise<number> {
  const due = await db.all<{ name: string; org_id: number }>(sql`
    SELECT name, org_id FROM ledgers
    WHERE measured_at IS NULL OR measured_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${MEASURE_EVERY})
    ORDER BY measured_at IS NOT NULL, measured_at LIMIT ${MEASURE_BATCH}`);
  let measured = 0;
  for (const { name, org_id } of due) {
    const owner = ownerOfName(name, Number(org_id));
    if (!owner) continue;
    try {
      const bytes = served(await ledgerStub(env, name).size(owner));
      await db.run(sql`UPDATE ledgers SET size_bytes = ${bytes}, measured_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ${name}`);
      measured++;
      if (bytes >= warnBytes) {
        const opened = await openGenerationAfter(env, db, owner.orgId, owner.generation);
        console.warn(JSON.stringify({ level: 'warn', job: 'measureLedgers', ledger: name, orgId: owner.orgId, bytes, limit: LEDGER_LIMIT_BYTES, opened }));
      }
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', job: 'measureLedgers', ledger: name, error: String(error) }));
    }
  }
  return measured;
}

/**
 * Opens the organisation's next generation when `generation` is its newest (an older one past the mark already has
 * a successor); answers the generation opened, or null when none was.
 */
async function openGenerationAfter(env: Env, db: Database, orgId: number, generation: number): Promise<number | null> {
  const [newest] = await db.all<{ generation: number | null }>(sql`SELECT max(generation) AS generation FROM ledgers WHERE org_id = ${orgId} AND ready = 1`);
  if (Number(newest?.generation ?? -1) !== generation) return null;
  const next = await openNextGeneration(env, db, orgId, generation);
  return next ? next.owner.generation : null;
}

export interface LedgerSize {
  name: string;
  org_id: number;
  domain: string;
  generation: number;
  size_bytes: number | null;
  measured_at: string | null;
  near_limit: boolean;
}

/** The ledgers by size, largest first (the operator API). */
export async function listLedgerSizes(db: Database, limit: number): Promise<LedgerSize[]> {
  const rows = await db.all<Omit<LedgerSize, 'near_limit'>>(sql`
    SELECT l.name, l.org_id, o.domain, l.generation, l.size_bytes, l.measured_at
    FROM ledgers l JOIN organizations o ON o.id = l.org_id
    ORDER BY l.size_bytes IS NULL, l.size_bytes DESC, l.name LIMIT ${limit}`);
  return rows.map((r) => ({ ...r, near_limit: r.size_bytes !== null && Number(r.size_bytes) >= LEDGER_WARN_BYTES }));
}
