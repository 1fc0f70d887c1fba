import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { blacklist } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { isAddressType, normalizeAddress, type AddressType } from '../../shared/address';
import { SKIP_REASONS } from '../../shared/contracts/broadcast';
import { SUPPRESSION_SKIPS, type SuppressionReason } from '../../shared/contracts/suppression';

export interface AddressRef {
  type: AddressType;
  value: string;
}

/** Map key of an address in `blacklistedAmong`'s result. */
export const addressKey = (type: AddressType, value: string) => `${type}:${normalizeAddress(type, value)}`;

// One statement looks up this many addresses (one JSON parameter, so D1's 100-parameter cap never applies).
const CHUNK = 500;

/** Why a recipient at a blacklisted address is skipped: the suppression's own words, else "on the blacklist". */
export const blacklistSkip = (reason: string | null) => SUPPRESSION_SKIPS[reason as SuppressionReason] ?? SKIP_REASONS.blacklisted;

/** The same rule in SQL, for a blacklist row's `reason` column (the runner's recipient pages, recipients.ts). */
export const blacklistSkipSql = (reason: unknown) =>
  sql`CASE ${reason} ${sql.join(
    Object.entries(SUPPRESSION_SKIPS).map(([key, text]) => sql`WHEN ${key} THEN ${text}`),
    sql` `,
  )} ELSE ${SKIP_REASONS.blacklisted} END`;

/**
 * The addresses among `addresses` that the organisation has blacklisted, as `addressKey`s with the entry's reason
 * (null: added by hand): the sending engine checks a whole batch of recipients with one query per 500 addresses
 * instead of one per recipient.
 */
export async function blacklistedAmong(db: Database, orgId: number, addresses: readonly AddressRef[]): Promise<Map<string, string | null>> {
  const wanted = [...new Map(addresses.filter((a) => isAddressType(a.type)).map((a) => [addressKey(a.type, a.value), a])).values()];
  const found = new Map<string, string | null>();
  if (wanted.length === 0) return found;
  const scope = new TenantScope(db, blacklist, orgId);
  const chunks: AddressRef[][] = [];
  for (let i = 0; i < wanted.length; i += CHUNK) chunks.push(wanted.slice(i, i + CHUNK));
  const queries = chunks.map((chunk) => {
    const json = JSON.stringify(chunk.map((a) => ({ t: a.type, v: normalizeAddress(a.type, a.value) })));
    return db
      .select({ type: blacklist.type, value: blacklist.value, reason: blacklist.reason })
      .from(blacklist)
      .where(
        scope.where(
          // Row-value IN: served by the unique index (org_id, type, value).
          sql`(${blacklist.type}, ${blacklist.value}) IN (SELECT json_extract(value, '$.t'), json_extract(value, '$.v') FROM json_each(${json}))`,
        ),
      );
  });
  const results = await db.batch(queries as [(typeof queries)[0], ...typeof queries]);
  for (const rows of results) for (const row of rows) found.set(`${row.type}:${row.value}`, row.reason);
  return found;
}

/** Whether one address is blacklisted in the organisation (the single-recipient form of `blacklistedAmong`). */
export async function isBlacklisted(db: Database, orgId: number, type: AddressType, value: string): Promise<boolean> {
  return (await blacklistedAmong(db, orgId, [{ type, value }])).size > 0;
}
