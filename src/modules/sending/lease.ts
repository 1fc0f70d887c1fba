import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { DEFAULT_TIMEOUTS } from '../../lib/smtp/timeouts';
import type { ClaimTable } from './claim';

// How long a claim (claim.ts) holds a row, and how the delivery that holds it keeps it while it works. The lease is
// short, so the rows of a delivery that died (a crash, a runtime killed) go to another delivery within about a
// minute; a delivery that is still working renews it (the heartbeat) every quarter lease, so a slow SMTP server
// never makes two deliveries send the same rows. The heartbeat stops at the batch deadline: a delivery stuck past
// it gives its rows up to the next one.

/**
 * Accepted messages that start an outcome write (deliver-batch.ts, outcome-report.ts: a write takes up to two
 * groups while two more may wait). A delivery that dies leaves at most four groups of accepted messages unrecorded
 * (they go again): the README's duplicate bound is the send lanes in flight times four groups.
 */
export const REPORT_GROUP = 20;

/**
 * The least time between two outcome writes of a batch (and before its first). A batch of 100 that sends within it
 * is written once, at its end: writes every 20 messages cost a quarter of bench:broadcast's throughput at 2,000
 * recipients, where the run is short and the database writes are most of it.
 */
export const REPORT_INTERVAL_MS = 250;

/** The lease unless SEND_LEASE_SECONDS says otherwise. */
export const DEFAULT_LEASE_MS = 60_000;

/**
 * The longest a batch keeps its claim: one SMTP session at its timeouts, from the connection to the server's
 * answer to the content (connect 15 s, greeting 30 s, four commands at 30 s: EHLO, STARTTLS, AUTH, MAIL, and the
 * content 120 s: 285 s). A batch that sends normally ends far sooner; one that does not is stuck.
 */
export const BATCH_DEADLINE_MS = DEFAULT_TIMEOUTS.connect + DEFAULT_TIMEOUTS.greeting + 4 * DEFAULT_TIMEOUTS.command + DEFAULT_TIMEOUTS.data;

/** The lease in ms: SEND_LEASE_SECONDS (5 to 600; the fault tests shorten it), else DEFAULT_LEASE_MS. */
export function leaseMs(env: Pick<Env, 'SEND_LEASE_SECONDS'>): number {
  const seconds = Number(env.SEND_LEASE_SECONDS);
  return Number.isFinite(seconds) && seconds >= 5 && seconds <= 600 ? seconds * 1000 : DEFAULT_LEASE_MS;
}

/** A running heartbeat; `stop` ends it and waits for a renewal under way. */
export interface Heartbeat {
  stop(): Promise<void>;
}

/**
 * Renews the claim `token` holds on `ids` every quarter lease until stopped or the batch deadline passes. Rows
 * already finished (their claim cleared) are not touched. A renewal that fails is logged and tried again at the
 * next beat: the lease has three more quarters to run.
 */
export function startHeartbeat(
  db: Database,
  table: ClaimTable,
  token: string,
  ids: readonly number[],
  lease: number,
  deadlineMs = BATCH_DEADLINE_MS,
): Heartbeat {
  const deadline = Date.now() + deadlineMs;
  const json = JSON.stringify(ids);
  let stopped = false;
  let wake: () => void = () => {};
  const loop = (async () => {
    while (!stopped && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(lease / 4, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped || Date.now() >= deadline) break;
      try {
        await db.run(renewStatement(table, token, json, new Date().toISOString()));
      } catch (error) {
        console.warn(JSON.stringify({ level: 'warn', heartbeat: table, rows: ids.length, error: String(error) }));
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake();
      await loop;
    },
  };
}

/** The heartbeat's UPDATE: a fresh updated_at on the rows `token` still holds among the ids of `json` (exported for the query-plan test). */
export function renewStatement(table: ClaimTable, token: string, json: string, now: string): SQL {
  return sql`UPDATE ${sql.raw(`"${table}"`)} SET updated_at = ${now} WHERE id IN (SELECT value FROM json_each(${json})) AND +claim = ${token} AND +status = 'sending'`;
}
