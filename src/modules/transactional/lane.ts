import { sendAnswer, type AnswerPlan } from './answer';

// The ledger's side of the single-message lane (transactional sends and test messages): taking a call's messages in
// (with its hourly limits and Idempotency-Key answer, in one transaction), and the watch that hands the queue what
// is due (a scheduled message whose time came) or lost (queued or claimed, untouched too long: its queue message
// is gone). The watch runs on the ledger's alarm, so a single message costs no shared D1 write, and it reads only
// the messages_lane partial index (ledger step 9): the broadcasts' rows are not in it. Handing a row to the queue
// twice is harmless: the claim (src/modules/sending/claim.ts) lets one delivery send it.

/** A queued or claimed single message untouched this long has lost its queue message (a claim's lease is 60 s). */
export const LANE_LOST_MS = 90_000;
/** Rows the watch hands the queue per alarm (it comes back at once while more are due). */
export const LANE_WATCH_LIMIT = 500;

/** The message columns a lane row sets (the rest keep their defaults). */
export const LANE_COLUMNS = [
  'org_id',
  'type',
  'status',
  'is_test',
  'sender_id',
  'template_id',
  'contact_id',
  'from_address',
  'from_name',
  'to_address',
  'subject',
  'body',
  'body_plain',
  'delayed_at',
  'sent_at',
  'external_id',
  'api_key_id',
  'metadata',
  'send_options',
] as const;
export type LaneRow = Record<(typeof LANE_COLUMNS)[number], string | number | null>;

const INSERT = `INSERT INTO messages (${LANE_COLUMNS.join(', ')}, created_at, updated_at) VALUES (${LANE_COLUMNS.map(() => '?').join(', ')}, ?, ?) RETURNING id`;

export interface AcceptRequest {
  rows: LaneRow[];
  plan: AnswerPlan;
}

export interface AcceptHooks<Refusal> {
  /** Takes the call's messages from its hourly limits; a refusal (not null) stops the call before anything is written. */
  limit?: (sql: SqlStorage, count: number) => Refusal | null;
  /** Stores the answer under the call's Idempotency-Key, in the same transaction. */
  remember?: (sql: SqlStorage, status: number, body: string) => void;
}

export type AcceptResult<Refusal> = { ok: true; ids: number[]; status: number; body: string } | { ok: false; refusal: Refusal };

/** Writes a call's messages and its answer in one transaction (inside the ledger). */
export function acceptSends<Refusal>(storage: DurableObjectStorage, req: AcceptRequest, hooks: AcceptHooks<Refusal>, now: number): AcceptResult<Refusal> {
  return storage.transactionSync((): AcceptResult<Refusal> => {
    const refusal = hooks.limit?.(storage.sql, req.rows.length) ?? null;
    if (refusal !== null) return { ok: false, refusal };
    const stamp = new Date(now).toISOString();
    const ids = req.rows.map((row) => Number(storage.sql.exec<{ id: number }>(INSERT, ...LANE_COLUMNS.map((col) => row[col]), stamp, stamp).one().id));
    const { status, body } = sendAnswer(req.plan, ids);
    hooks.remember?.(storage.sql, status, body);
    return { ok: true, ids, status, body };
  });
}

const UNFINISHED = `broadcast_id IS NULL AND status IN ('queued', 'sending')`;

/**
 * Marks the single messages now due or lost as handed to the queue (updated now) and answers their ids: a scheduled
 * one whose time came and that was not handed since, or any untouched for LANE_LOST_MS.
 */
export function takeDueSingles(sql: SqlStorage, now: number, limit = LANE_WATCH_LIMIT): number[] {
  const stamp = new Date(now).toISOString();
  const lostBefore = new Date(now - LANE_LOST_MS).toISOString();
  return sql
    .exec<{ id: number }>(
      `UPDATE messages SET updated_at = ? WHERE id IN (
        SELECT id FROM messages WHERE ${UNFINISHED}
          AND (delayed_at IS NULL OR delayed_at <= ?)
          AND (updated_at < ? OR (delayed_at IS NOT NULL AND updated_at < delayed_at))
        LIMIT ?)
      RETURNING id`,
      stamp,
      stamp,
      lostBefore,
      limit,
    )
    .toArray()
    .map((r) => Number(r.id));
}

/**
 * When the watch must look at the rows a call just wrote (epoch ms), from those rows alone: the earliest scheduled
 * time, or when a queued one would be lost; null when none is queued (a test key's are sent at once). The ledger
 * sets its alarm no later than this (the alarm then looks at every row: nextLaneWatch). Reading the table instead
 * cost each call a walk over every unfinished single message (0.26 ms at 5,000 waiting, growing with the backlog).
 */
export function laneWatchOf(rows: readonly LaneRow[], now: number): number | null {
  const times = rows.filter((row) => row.status === 'queued').map((row) => (row.delayed_at ? Date.parse(String(row.delayed_at)) : now + LANE_LOST_MS));
  return times.length ? Math.max(now + 1_000, Math.min(...times)) : null;
}

/** When the watch should next look (epoch ms): the next scheduled time, or when the oldest unfinished one would be lost. */
export function nextLaneWatch(sql: SqlStorage, now: number): number | null {
  const stamp = new Date(now).toISOString();
  const row = sql
    .exec<{ scheduled: string | null; touched: string | null }>(
      `SELECT
        (SELECT min(delayed_at) FROM messages WHERE ${UNFINISHED} AND delayed_at > ?) AS scheduled,
        (SELECT min(updated_at) FROM messages WHERE ${UNFINISHED} AND (delayed_at IS NULL OR delayed_at <= ?)) AS touched`,
      stamp,
      stamp,
    )
    .one();
  const times = [row.scheduled ? Date.parse(row.scheduled) : null, row.touched ? Date.parse(row.touched) + LANE_LOST_MS : null].filter(
    (t): t is number => t !== null,
  );
  return times.length ? Math.max(now + 1_000, Math.min(...times)) : null;
}
