import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { BatchStatement } from '../crud/raw-batch';
import { DEFAULT_LEASE_MS } from './lease';

// The one place that decides who may send a row, and every change of a message's status. Every sendable row (a
// message, a system mail) moves
//   queued --claim--> sending --finish--> sent | failed | skipped (left out on purpose) | queued (released for a retry)
// and a broadcast's messages also
//   (a page of recipients written) --> queued | skipped with the reason       (run-store.ts, writeRecipientPage)
//   queued --the broadcast cancelled--> skipped "cancelled"                    (skipQueuedStatement)
//   failed, retryable --retry failed--> queued, attempts from 0               (requeueStatement)
//   queued | sending, untouched since the boot epoch --the runtime restarted--> queued, touched now
//                                                                               (releaseLostStatement, queue-epoch.ts)
// A claim is one conditional UPDATE over a whole batch of ids that stamps the rows with a fresh token; only
// rows that were queued (or whose earlier claim's lease ran out: its delivery died, lease.ts) are taken, so two deliveries of
// the same queue message, or a redelivery after a crash, never both get a row. Finishing writes every
// outcome of a batch in one statement that only touches rows still carrying this delivery's token.
// Every statement finds its rows by primary key from the batch's ids: the unary + on the other columns keeps
// SQLite from walking an index of the whole broadcast instead (which made each batch cost O(recipients)).

/** Tables with the claim columns: id, status, attempts, claim, updated_at. */
export type ClaimTable = 'messages' | 'system_mails';

export interface ClaimOptions {
  table: ClaimTable;
  ids: readonly number[];
  /** Extra condition on the rows (the organisation, the broadcast still sending...). */
  where?: SQL;
  /** The columns to answer (default all): a batch of 100 rows converts noticeably faster with only what is used. */
  columns?: readonly string[];
  now?: number;
  /** How long the claim holds without a heartbeat (lease.ts); after it another delivery may take the row. */
  leaseMs?: number;
}

export interface Claim<Row> {
  token: string;
  rows: Row[];
}

/** What became of one claimed row. */
export type RowOutcome =
  /** `note`: what the provider said of a copy it refused (a cc or bcc), kept as the message's error text. */
  | { id: number; status: 'sent'; externalId: string | null; subject?: string | null; note?: string }
  | { id: number; status: 'failed'; error: string; retryable: boolean }
  /** Left out at send time (the contact unsubscribed or opted out since the broadcast started): never sent. */
  | { id: number; status: 'skipped'; error: string }
  /**
   * Back to queued for another try. `later`: on a new, delayed queue message (a send limit or the provider's
   * "try later"), not by failing the delivery; `refund`: the attempt is given back (the row was never tried).
   */
  | { id: number; status: 'queued'; error: string | null; later?: boolean; refund?: boolean };

const table = (name: ClaimTable) => sql.raw(`"${name}"`);

/** Takes the rows among `ids` that no other delivery holds; returns them (as stored, snake_case) with the token. */
export async function claimRows<Row = Record<string, unknown>>(db: Database, options: ClaimOptions): Promise<Claim<Row>> {
  const token = crypto.randomUUID();
  const rows = await db.all<Row>(claimStatement(options, token));
  return { token, rows };
}

/** The claim's one conditional UPDATE (exported for the query-plan test). */
export function claimStatement(options: ClaimOptions, token: string): SQL {
  const now = options.now ?? Date.now();
  const stamp = new Date(now).toISOString();
  const leaseEnd = new Date(now - (options.leaseMs ?? DEFAULT_LEASE_MS)).toISOString();
  return sql`
    UPDATE ${table(options.table)} SET status = 'sending', claim = ${token}, attempts = attempts + 1, updated_at = ${stamp}
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(options.ids)}))
      AND (+status = 'queued' OR (+status = 'sending' AND updated_at < ${leaseEnd}))
      ${options.where ? sql`AND ${options.where}` : sql``}
    RETURNING ${options.columns ? sql.raw(options.columns.map((c) => `"${c}"`).join(', ')) : sql.raw('*')}`;
}

/** The outcomes as the JSON the finishing statements read: i id, s status, e error, x external id, r retryable, f refund, j subject. */
export function outcomesJson(outcomes: readonly RowOutcome[]): string {
  return JSON.stringify(
    outcomes.map((o) => ({
      i: o.id,
      s: o.status,
      e: o.status === 'sent' ? (o.note ?? null) : o.error,
      x: o.status === 'sent' ? o.externalId : null,
      r: o.status === 'failed' ? (o.retryable ? 1 : 0) : null,
      f: o.status === 'queued' && o.refund ? 1 : 0,
      j: o.status === 'sent' ? (o.subject ?? null) : null,
    })),
  );
}

/**
 * The statement that records a batch's outcomes on the rows this delivery still holds (claim = token, status
 * sending). Run it in the same batch (one transaction) as the counters that depend on it (see countClaimed), after them.
 * `onSent` adds column assignments for sent rows (system mail clears its text, which holds one-time codes).
 */
export function finishStatement(db: Database, tableName: ClaimTable, token: string, json: string, now = Date.now(), onSent?: SQL): BatchStatement {
  const stamp = new Date(now).toISOString();
  const t = table(tableName);
  const extra =
    tableName === 'messages'
      ? sql`, retryable = o.r, external_id = CASE WHEN o.s = 'sent' THEN o.x ELSE external_id END,
          subject = CASE WHEN o.s = 'sent' AND o.j IS NOT NULL THEN o.j ELSE subject END`
      : sql``;
  return db.run(sql`
    UPDATE ${t} SET
      status = o.s,
      error = o.e,
      sent_at = CASE WHEN o.s = 'sent' THEN ${stamp} ELSE sent_at END,
      attempts = attempts - o.f,
      claim = NULL,
      updated_at = ${stamp}
      ${extra}
      ${onSent ? sql`, ${onSent}` : sql``}
    FROM (SELECT value ->> 'i' AS i, value ->> 's' AS s, value ->> 'e' AS e, value ->> 'x' AS x, value ->> 'r' AS r, value ->> 'f' AS f, value ->> 'j' AS j FROM json_each(${json})) AS o
    WHERE ${t}.id = o.i AND +${t}.claim = ${token} AND +${t}.status = 'sending'`);
}

/** queued -> skipped with `reason`, for the message ids `pending` selects (a cancelled broadcast's rows). */
export function skipQueuedStatement(db: Database, pending: SQL, reason: string, now: string): BatchStatement {
  return db.run(sql`UPDATE messages SET status = 'skipped', error = ${reason}, updated_at = ${now} WHERE id IN (${pending}) AND +status = 'queued'`);
}

/** failed -> queued with the attempts counted from 0, for the messages `where` selects (retry failed). */
export function requeueStatement(db: Database, where: SQL, now: string): BatchStatement {
  return db.run(
    sql`UPDATE messages SET status = 'queued', attempts = 0, error = NULL, retryable = NULL, updated_at = ${now} WHERE ${where} AND +status = 'failed'`,
  );
}

/**
 * A broadcast's rows whose queue message died with the last runtime (queue-epoch.ts): queued or claimed, and
 * untouched since `lostBefore`, the boot. No delivery of this runtime holds them (its claims and heartbeats are all
 * stamped after the boot), so a claimed one goes back to queued without its lease running out; both are stamped now,
 * as handed to the queue in this epoch, so they are taken back once. Queued rows after `dispatchedUpTo` were never
 * handed to the queue (the runner's walk puts them there) and are left alone. Up to `limit` rows, answering their
 * ids. The in-flight rows are found through (org_id, status): the ledger is the organisation's, and a broadcast's
 * queued and claimed rows are its window, not its millions.
 */
export function releaseLostStatement(
  run: { orgId: number; broadcastId: number },
  lostBefore: number,
  dispatchedUpTo: number,
  limit: number,
  now = Date.now(),
): SQL {
  const boot = new Date(lostBefore).toISOString();
  const lost = sql`org_id = ${run.orgId} AND status IN ('queued', 'sending') AND +updated_at < ${boot} AND +broadcast_id = ${run.broadcastId}`;
  return sql`
    UPDATE messages SET status = 'queued', claim = NULL, updated_at = ${new Date(now).toISOString()}
    WHERE id IN (SELECT id FROM messages WHERE ${lost} AND (status = 'sending' OR id <= ${dispatchedUpTo}) ORDER BY id LIMIT ${limit})
      AND +status IN ('queued', 'sending') AND +updated_at < ${boot}
    RETURNING id`;
}

/**
 * SQL counting the rows of this batch that end as `status` and are still held by this delivery: used to move
 * a broadcast's counters in the same transaction as finishStatement, before it. A finish that is run twice
 * (its answer was lost) finds no held rows the second time and counts nothing.
 */
export function countClaimed(token: string, json: string, status: 'sent' | 'failed' | 'skipped', broadcastId: number): SQL {
  return sql`(SELECT count(*) FROM json_each(${json}) AS o CROSS JOIN messages AS m ON m.id = o.value ->> 'i'
    WHERE +m.claim = ${token} AND +m.status = 'sending' AND +m.broadcast_id = ${broadcastId} AND o.value ->> 's' = ${status})`;
}
