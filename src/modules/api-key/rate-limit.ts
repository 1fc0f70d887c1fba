import type { ApiLimits } from '../../context';
import { ApiError } from '../../lib/api-error';
import type { ApiLimitName } from '../../shared/contracts/org-api-key';

// The limits of organisation API keys as token buckets in the organisation's first ledger (table api_buckets, ledger
// step 12): one row per bucket, refilled evenly, read and written only inside the ledger object, which runs one call at
// a time, so no request ever costs a D1 write. A bucket starts full; a limit the operator lowers takes effect at the
// next take (the level is capped at the capacity).

/** The windows the operator's limits are given in. */
export const SECOND_MS = 1000;
export const HOUR_MS = 3_600_000;

/** Bucket names: a key's and the organisation's requests per second (the auth middleware) and messages per hour (the send module). */
export const keyRequestsBucket = (keyId: number) => `key:${keyId}:rps`;
export const ORG_REQUESTS_BUCKET = 'org:rps';
export const keyMessagesBucket = (keyId: number) => `key:${keyId}:mph`;
export const ORG_MESSAGES_BUCKET = 'org:mph';

/** One take of `count` tokens from a bucket of `capacity` tokens refilled evenly over `periodMs`. */
export interface BucketTake {
  name: string;
  capacity: number;
  periodMs: number;
  count: number;
}

export type TakeAnswer = { ok: true } | { ok: false; retryAfterMs: number };

/** The bucket's level at `now`: the stored tokens plus what refilled since, at most the capacity (full when new). */
function levelOf(sql: SqlStorage, take: BucketTake, now: number): number {
  const row = sql.exec<{ tokens: number; updated_at: number }>('SELECT tokens, updated_at FROM api_buckets WHERE name = ?', take.name).toArray()[0];
  if (!row) return take.capacity;
  const refilled = (Math.max(0, now - Number(row.updated_at)) * take.capacity) / take.periodMs;
  return Math.min(take.capacity, Number(row.tokens) + refilled);
}

/** How long until `take` could succeed from `level`. */
const waitFor = (take: BucketTake, level: number) => Math.ceil(((take.count - level) * take.periodMs) / take.capacity);

/**
 * Takes from every bucket of `takes`, or from none: the answer names the first that refused (its index) and how
 * long until it would have enough. For calls that spend against several limits at once (a key's and its
 * organisation's); runs inside the ledger object, whose calls never interleave.
 */
export function takeAllTokens(sql: SqlStorage, takes: readonly BucketTake[], now: number): { ok: true } | { ok: false; index: number; retryAfterMs: number } {
  const levels = takes.map((take) => levelOf(sql, take, now));
  const short = takes.findIndex((take, i) => levels[i] < take.count);
  if (short >= 0) return { ok: false, index: short, retryAfterMs: waitFor(takes[short], levels[short]) };
  takes.forEach((take, i) => {
    sql.exec(
      `INSERT INTO api_buckets (name, tokens, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at`,
      take.name,
      levels[i] - take.count,
      now,
    );
  });
  return { ok: true };
}

/** Takes `count` tokens from bucket `name` (capacity tokens, refilled evenly over periodMs); never partially. */
export function takeTokens(sql: SqlStorage, name: string, capacity: number, periodMs: number, count: number, now: number): TakeAnswer {
  const answer = takeAllTokens(sql, [{ name, capacity, periodMs, count }], now);
  return answer.ok ? { ok: true } : { ok: false, retryAfterMs: answer.retryAfterMs };
}

/** What a ledger answers when a limit refused a call: which limit, its size, and how long to wait. */
export interface ApiLimitRefusal {
  limit: ApiLimitName;
  capacity: number;
  retryAfterMs: number;
}

/** The admission of one org-key request: `ok`, or the limit that refused it. */
export type ApiAdmission = { ok: true } | ({ ok: false } & ApiLimitRefusal);

/** A request's admission: as ApiAdmission, or refused because its key was revoked. */
export type KeyAdmission = ApiAdmission | { ok: false; revoked: true };

/** Takes from limits' buckets together or not at all, answering the limit that refused. */
function admit(sql: SqlStorage, takes: (BucketTake & { limit: ApiLimitName })[], now: number): ApiAdmission {
  const answer = takeAllTokens(sql, takes, now);
  if (answer.ok) return answer;
  const refused = takes[answer.index];
  return { ok: false, limit: refused.limit, capacity: refused.capacity, retryAfterMs: answer.retryAfterMs };
}

/**
 * One request of key `keyId` against its requests-per-second limit and its organisation's, both or neither: the
 * OrgLedger's admitApiRequest runs it.
 */
export function admitRequest(sql: SqlStorage, keyId: number, limits: ApiLimits, now: number): KeyAdmission {
  if (sql.exec('SELECT 1 FROM revoked_api_keys WHERE key_id = ?', keyId).toArray().length > 0) return { ok: false, revoked: true };
  return admit(
    sql,
    [
      { name: keyRequestsBucket(keyId), capacity: limits.keyRequestsPerSecond, periodMs: SECOND_MS, count: 1, limit: 'key_requests_per_second' },
      { name: ORG_REQUESTS_BUCKET, capacity: limits.orgRequestsPerSecond, periodMs: SECOND_MS, count: 1, limit: 'org_requests_per_second' },
    ],
    now,
  );
}

/** Records key `keyId` as revoked: its next admission refuses it (the OrgLedger's revokeApiKey runs it). */
export function recordRevokedKey(sql: SqlStorage, keyId: number): void {
  sql.exec('INSERT OR IGNORE INTO revoked_api_keys (key_id) VALUES (?)', keyId);
}

/**
 * `count` messages of key `keyId` against its messages-per-hour limit and its organisation's, all or none: for the
 * send module, inside its own call on the organisation's first ledger (where the buckets live), before it queues.
 */
export function admitMessages(sql: SqlStorage, keyId: number, limits: ApiLimits, count: number, now: number): ApiAdmission {
  return admit(
    sql,
    [
      { name: keyMessagesBucket(keyId), capacity: limits.keyMessagesPerHour, periodMs: HOUR_MS, count, limit: 'key_messages_per_hour' },
      { name: ORG_MESSAGES_BUCKET, capacity: limits.orgMessagesPerHour, periodMs: HOUR_MS, count, limit: 'org_messages_per_hour' },
    ],
    now,
  );
}

const LIMIT_TEXT: Record<ApiLimitName, (capacity: string) => string> = {
  key_requests_per_second: (n) => `This key's limit of ${n} requests per second`,
  org_requests_per_second: (n) => `The organisation's limit of ${n} requests per second`,
  key_messages_per_hour: (n) => `This key's limit of ${n} messages per hour`,
  org_messages_per_hour: (n) => `The organisation's limit of ${n} messages per hour`,
};

/** Whole seconds to wait, at least 1 (Retry-After). */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The 429 answer to a refused call: code rate_limited, the limit named in the message, and Retry-After. */
export function apiLimitError(refusal: ApiLimitRefusal): ApiError {
  const seconds = retryAfterSeconds(refusal.retryAfterMs);
  const message = `${LIMIT_TEXT[refusal.limit](refusal.capacity.toLocaleString('en-US'))} was reached. Try again in ${seconds} s.`;
  return new ApiError(429, 'rate_limited', message, undefined, { 'Retry-After': String(seconds) });
}
