import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { sha256Hex } from '../../lib/tokens';
import { served, type LedgerAnswer } from '../ledger/owner';
import type { LedgerHandle } from '../ledger/registry';
import { requestCurrentLedger } from '../ledger/request-ledger';
import { IDEMPOTENCY_ERRORS, IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, parseIdempotencyKey } from './contract';

// The worker's side of idempotency keys: a route wraps its work in `idempotent`, which holds the key in the
// organisation's newest ledger (where the send module writes its messages, so it can store the answer in the same
// transaction: ledger-side.ts) while the work runs.

/** The key a request holds while its work runs; the work may finish it itself, in the ledger, with what it wrote. */
export interface IdempotencyClaim {
  scope: string;
  key: string;
  ledger: LedgerHandle;
}

/** What the work answers: its response, and whether it already stored that answer under the key (finishIdempotentSql). */
export interface IdempotentWork {
  response: Response;
  finished: boolean;
}

/** A request's fingerprint under a key: method, path with query, and the raw body, hashed (SHA-256, hex). */
export const requestHashOf = (method: string, pathAndQuery: string, body: string) => sha256Hex(`${method.toUpperCase()} ${pathAndQuery}\n${body}`);

/**
 * Runs `work` at most once per Idempotency-Key in `scope` (the caller and the path, e.g. `key:12:/api/v1/send`).
 * Without the header it runs `work(null)`. With one it hashes the request and begins the key: a stored answer is
 * replayed (with `Idempotent-Replayed: true`) and nothing runs; a key still in flight is a 409, a key used for
 * another request a 422, a malformed key a 400. Otherwise it runs `work(claim)`: an answer of 400 or more, or a
 * throw, releases the key (nothing was done, so the client may fix the request and retry with it); any other answer
 * the work did not store itself is stored now. The body stays readable afterwards (Hono caches it).
 */
export async function idempotent(c: Context<AppEnv>, scope: string, work: (claim: IdempotencyClaim | null) => Promise<IdempotentWork>): Promise<Response> {
  const header = c.req.header(IDEMPOTENCY_KEY_HEADER);
  if (header === undefined) return (await work(null)).response;
  const key = parseIdempotencyKey(header);
  if (key === null) throw refusal('invalid');

  const url = new URL(c.req.url);
  const hash = await requestHashOf(c.req.method, url.pathname + url.search, await c.req.text());
  const ledger = await requestCurrentLedger(c);
  const begun = served(await ledger.stub.beginIdempotent(ledger.owner, scope, key, hash, Date.now()));
  if (begun.state === 'done') return replay(begun.status, begun.body);
  // The draft leaves the wait open: a second is about what a send takes.
  if (begun.state === 'in_flight') throw refusal('inFlight', { 'Retry-After': '1' });
  if (begun.state === 'mismatch') throw refusal('reused');

  const claim: IdempotencyClaim = { scope, key, ledger };
  let done: IdempotentWork;
  try {
    done = await work(claim);
  } catch (error) {
    await settle(c, 'release', () => ledger.stub.releaseIdempotent(ledger.owner, scope, key));
    throw error;
  }
  const { response, finished } = done;
  if (finished) return response;
  if (response.status >= 400) {
    await settle(c, 'release', () => ledger.stub.releaseIdempotent(ledger.owner, scope, key));
  } else {
    const body = await response.clone().text();
    await settle(c, 'finish', () => ledger.stub.finishIdempotent(ledger.owner, scope, key, response.status, body));
  }
  return response;
}

function refusal(which: keyof typeof IDEMPOTENCY_ERRORS, headers?: Record<string, string>): ApiError {
  const { status, code, message } = IDEMPOTENCY_ERRORS[which];
  return new ApiError(status, code, message, undefined, headers);
}

/** The stored answer again, as JSON (every answer of the API is); an empty body stays empty (a 204 may have none). */
function replay(status: number, body: string): Response {
  return new Response(body === '' ? null : body, { status, headers: { 'Content-Type': 'application/json', [IDEMPOTENT_REPLAYED_HEADER]: 'true' } });
}

/**
 * Releases or finishes a key after the work answered. A failure here is logged, not thrown: the work's own answer (or
 * error) is what the client must see. The key's lock then runs out by itself (IDEMPOTENCY_LOCK_MS); a finish that
 * failed lets a later retry run the work again, which is why the send module stores its answer in its own transaction.
 */
async function settle(c: Context<AppEnv>, step: 'release' | 'finish', call: () => Promise<LedgerAnswer<null>>): Promise<void> {
  try {
    served(await call());
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', request_id: c.var.requestId, idempotency: step, error: String(error) }));
  }
}
