import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { ApiLimits, AppEnv, AuthContext, OrgKeyAuth } from '../../context';
import { ApiError, unauthorized } from '../../lib/api-error';
import { IsolateCache } from '../../lib/isolate-cache';
import { sameDigest, sha256Hex } from '../../lib/tokens';
import { AUTH_TYPE_ORG_KEY } from '../../shared/contracts/auth';
import { ORG_KEY_MESSAGES, ORG_KEY_PREFIX, type OrgKeyScope } from '../../shared/contracts/org-api-key';
import { ledgerName, served } from '../ledger/owner';
import { ledgerStub, orgLedger, type LedgerHandle } from '../ledger/registry';
import { ORG_KEY_PATTERN } from './keys';
import { apiLimitError } from './rate-limit';

/** A bearer value that is an organisation key rather than a console JWT (checked before the JWT path). */
export const isOrgKeyToken = (token: string) => token.startsWith(ORG_KEY_PREFIX);

/** last_used_at moves at most this often per key: a D1 write a minute, not one a request. */
export const LAST_USED_EVERY_MS = 60_000;

const NO_KEY_HASH = '0'.repeat(64);

/**
 * Keys by their hash, for a few seconds, with their organisation's limits and first ledger: an application sends in
 * bursts, and this saves each of its calls a D1 round trip. A revocation still refuses the key at once everywhere
 * (its first ledger, which every call asks for admission, records it: revokeOrgKey); a limit the operator changes
 * applies within these 5 s.
 */
const keysByHash = new IsolateCache<string, KeyLookup>(5_000);

/** After the operator changed an organisation's limits: this isolate reads its keys again. */
export const forgetOrgKeys = (orgId: number) => keysByHash.forget((_, row) => row.org_id === orgId);

interface KeyLookup {
  id: number;
  org_id: number;
  name: string;
  scope: string;
  test: number;
  key_hash: string;
  revoked_at: string | null;
  last_used_at: string | null;
  key_rps: number;
  key_mph: number;
  org_rps: number;
  org_mph: number;
  ledger_key: string | null;
  ledger_name: string | null;
  ledger_ready: number | null;
}

/** The key with its organisation's limits and first ledger, in one read (by the unique hash index). */
async function lookUp(c: Context<AppEnv>, keyHash: string): Promise<KeyLookup | undefined> {
  const cached = keysByHash.get(keyHash);
  if (cached) return cached;
  const [row] = await c.var.db.all<KeyLookup>(sql`
    SELECT k.id, k.org_id, k.name, k.scope, k.test, k.key_hash, k.revoked_at, k.last_used_at,
      o.api_key_requests_per_second AS key_rps, o.api_key_messages_per_hour AS key_mph,
      o.api_org_requests_per_second AS org_rps, o.api_org_messages_per_hour AS org_mph,
      o.ledger_key, l.name AS ledger_name, l.ready AS ledger_ready
    FROM org_api_keys k JOIN organizations o ON o.id = k.org_id
    LEFT JOIN ledgers l ON l.org_id = o.id AND l.generation = 0
    WHERE k.key_hash = ${keyHash}`);
  // Kept once its first ledger is ready (from then on its name never changes) and while the key is live.
  if (row?.ledger_ready && !row.revoked_at) keysByHash.set(keyHash, row);
  return row;
}

/** The organisation's first ledger (where its limits' buckets live): from the lookup, else made on first use. */
async function firstLedger(c: Context<AppEnv>, row: KeyLookup): Promise<LedgerHandle> {
  if (row.ledger_key && row.ledger_name && row.ledger_ready) {
    return { owner: { orgId: row.org_id, key: row.ledger_key, generation: 0 }, stub: ledgerStub(c.env, ledgerName(row.ledger_key, 0)) };
  }
  const handle = await orgLedger(c.env, c.var.db, row.org_id);
  if (!handle) throw unauthorized();
  return handle;
}

/** Moves last_used_at when the stored one is a minute old or more, after the answer; a conditional UPDATE, so two requests at once write once. */
function touchLastUsed(c: Context<AppEnv>, row: KeyLookup, now: number): void {
  if (row.last_used_at && Date.parse(row.last_used_at) > now - LAST_USED_EVERY_MS) return;
  const stamp = new Date(now).toISOString();
  row.last_used_at = stamp; // the cached row too: the next call of this isolate does not write again
  const cutoff = new Date(now - LAST_USED_EVERY_MS).toISOString();
  const write = c.var.db
    .run(sql`UPDATE org_api_keys SET last_used_at = ${stamp} WHERE id = ${row.id} AND (last_used_at IS NULL OR last_used_at <= ${cutoff})`)
    .catch((error) => console.error(JSON.stringify({ level: 'error', orgKey: row.id, lastUsed: String(error) })));
  c.executionCtx.waitUntil(write);
}

/**
 * Revokes key `keyId` where requests are admitted, its organisation's first ledger, after D1 recorded it: from then on
 * no isolate lets it in, whatever it has cached. Again changes nothing.
 */
export async function revokeOrgKey(c: Context<AppEnv>, keyId: number): Promise<void> {
  keysByHash.forget((_, row) => row.id === keyId);
  const ledger = await orgLedger(c.env, c.var.db, c.var.org.id);
  if (ledger) served(await ledger.stub.revokeApiKey(ledger.owner, keyId));
}

/**
 * The caller an organisation key proves (Authorization: Bearer rk_...): unknown or revoked is a 401, another
 * organisation's key a 403 wrong_organization; then the request is admitted against the key's and the organisation's
 * requests-per-second limits in the organisation's ledger (429 with Retry-After when either is spent).
 */
export async function authenticateOrgKey(c: Context<AppEnv>, token: string): Promise<AuthContext> {
  const wellFormed = ORG_KEY_PATTERN.test(token);
  const keyHash = await sha256Hex(wellFormed ? token : '');
  const row = wellFormed ? await lookUp(c, keyHash) : undefined;
  // The index found the row by its hash; compare again without stopping early, as the personal keys do.
  if (!row || !sameDigest(keyHash, row.key_hash ?? NO_KEY_HASH) || row.revoked_at) throw unauthorized();
  if (row.org_id !== c.var.org.id) throw new ApiError(403, 'wrong_organization', ORG_KEY_MESSAGES.wrongOrganization);

  const limits: ApiLimits = {
    keyRequestsPerSecond: Number(row.key_rps),
    keyMessagesPerHour: Number(row.key_mph),
    orgRequestsPerSecond: Number(row.org_rps),
    orgMessagesPerHour: Number(row.org_mph),
  };
  const now = Date.now();
  const ledger = await firstLedger(c, row);
  const admission = served(await ledger.stub.admitApiRequest(ledger.owner, row.id, limits, now));
  if (!admission.ok && 'revoked' in admission) {
    keysByHash.forget((hash) => hash === keyHash);
    throw unauthorized();
  }
  touchLastUsed(c, row, now);
  if (!admission.ok) throw apiLimitError(admission);

  const orgKey: OrgKeyAuth = { id: row.id, name: row.name, scope: row.scope as OrgKeyScope, test: Boolean(row.test), limits };
  return { userId: null, sessionId: null, authTypeId: AUTH_TYPE_ORG_KEY, orgKey };
}
