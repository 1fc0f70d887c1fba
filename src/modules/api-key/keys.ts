import type { orgApiKeys } from '../../db/schema';
import { randomBase62, sha256Hex } from '../../lib/tokens';
import { LIVE_KEY_PREFIX, TEST_KEY_PREFIX, type OrgKeyRow, type OrgKeyScope } from '../../shared/contracts/org-api-key';

export type OrgKeyRecord = typeof orgApiKeys.$inferSelect;

/** Random characters after `rk_live_` / `rk_test_`: 40 of base62, about 238 bits. */
export const KEY_RANDOM_LENGTH = 40;
/** Random characters kept in the visible prefix: enough to tell a handful of keys apart, far too few to guess the rest. */
const PREFIX_RANDOM_LENGTH = 6;

/** The shape of an organisation key, checked before any lookup (anything else is a 401 without a query). */
export const ORG_KEY_PATTERN = new RegExp(`^rk_(live|test)_[0-9A-Za-z]{${KEY_RANDOM_LENGTH}}$`);

/** A new organisation key with what is stored of it: its hash and its visible prefix. */
export async function newOrgKey(test: boolean): Promise<{ key: string; keyHash: string; prefix: string }> {
  const start = test ? TEST_KEY_PREFIX : LIVE_KEY_PREFIX;
  const key = `${start}${randomBase62(KEY_RANDOM_LENGTH)}`;
  return { key, keyHash: await sha256Hex(key), prefix: key.slice(0, start.length + PREFIX_RANDOM_LENGTH) };
}

/** A key as the API answers it, with the name of the user who made it; the secret only when it was just made. */
export function presentOrgKey(row: OrgKeyRecord, creatorName: string | null, key?: string): OrgKeyRow {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as OrgKeyScope,
    test: row.test,
    prefix: row.prefix,
    created_by: row.createdByUserId !== null && creatorName !== null ? { id: row.createdByUserId, name: creatorName } : null,
    last_used_at: row.lastUsedAt,
    revoked_at: row.revokedAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    ...(key ? { key } : {}),
  };
}
