// Idempotency keys inside the organisation's ledger (the table of ledger step 10): plain SQL on the object's storage,
// no transaction of their own, so a caller can finish a key in the same transactionSync as the work it records (the
// send module writes its messages and the stored answer together, or neither). The ledger is single-threaded, so a
// begin reads and claims a key with no other begin in between. Times are epoch milliseconds.

/** How long a key's answer is kept: a retry within it replays the answer, after it the key is new again. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/** How long a begun key stays locked: a worker that died mid-request leaves a lock a retry may take over after this. */
export const IDEMPOTENCY_LOCK_MS = 60 * 1000;
/** Expired keys deleted by each begin: a few, so a begin never walks the table, yet deletes faster than one key a begin adds. */
const EXPIRED_PER_BEGIN = 10;

/** What a begin found: a new (or taken over) key the caller now holds, one still locked, one used with another request, or a stored answer. */
export type IdempotentBegin = { state: 'new' } | { state: 'in_flight' } | { state: 'mismatch' } | { state: 'done'; status: number; body: string };

type KeyRow = {
  request_hash: string;
  state: 'in_flight' | 'done';
  status: number | null;
  body: string | null;
  created_at: number;
  locked_until: number;
};

/**
 * Claims `key` in `scope` for a request whose hash is `requestHash`, or says why not. A key past its 24 hours counts as
 * never used; an in-flight key whose lock ran out (its worker died before finishing) is taken over. The request hash is
 * compared first: another request under a used key is a mismatch whatever the key's state.
 */
export function beginIdempotentSql(sql: SqlStorage, scope: string, key: string, requestHash: string, now: number): IdempotentBegin {
  const keptAfter = now - IDEMPOTENCY_KEEP_MS;
  sql.exec(
    'DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE created_at <= ? ORDER BY created_at LIMIT ?)',
    keptAfter,
    EXPIRED_PER_BEGIN,
  );
  const row = sql
    .exec<KeyRow>('SELECT request_hash, state, status, body, created_at, locked_until FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key)
    .toArray()[0];
  if (row && Number(row.created_at) > keptAfter) {
    if (row.request_hash !== requestHash) return { state: 'mismatch' };
    if (row.state === 'done') return { state: 'done', status: Number(row.status), body: String(row.body ?? '') };
    if (Number(row.locked_until) > now) return { state: 'in_flight' };
    sql.exec('UPDATE idempotency_keys SET locked_until = ? WHERE scope = ? AND key = ?', now + IDEMPOTENCY_LOCK_MS, scope, key);
    return { state: 'new' };
  }
  // New, or expired but not yet among the deleted: the row is (re)made, its 24 hours counted from now.
  sql.exec(
    `INSERT OR REPLACE INTO idempotency_keys (scope, key, request_hash, state, status, body, created_at, locked_until)
     VALUES (?, ?, ?, 'in_flight', NULL, NULL, ?, ?)`,
    scope,
    key,
    requestHash,
    now,
    now + IDEMPOTENCY_LOCK_MS,
  );
  return { state: 'new' };
}

/**
 * Stores the answer of the request holding `key`: retries replay it from now on. Only an in-flight key takes an
 * answer, so the first stored answer is the one kept (a second finish changes nothing).
 */
export function finishIdempotentSql(sql: SqlStorage, scope: string, key: string, status: number, body: string): void {
  sql.exec(
    "UPDATE idempotency_keys SET state = 'done', status = ?, body = ?, locked_until = 0 WHERE scope = ? AND key = ? AND state = 'in_flight'",
    status,
    body,
    scope,
    key,
  );
}

/** Forgets an in-flight key whose request did nothing (it failed or was refused): the client may retry it, fixed, with the same key. A stored answer stays. */
export function releaseIdempotentSql(sql: SqlStorage, scope: string, key: string): void {
  sql.exec("DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND state = 'in_flight'", scope, key);
}
