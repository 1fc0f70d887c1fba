import { sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The organisation condition for rows found by a key (their ids, a contact id, a list of ids in json_each): `+org_id
 * = ?`. The unary plus keeps the condition but stops SQLite from choosing an index that leads with org_id and walking
 * every row of the organisation instead of seeking the few keys, with or without table statistics (ANALYZE, PRAGMA
 * optimize: test/worker/sending/plans-with-statistics.test.ts). Use it only next to such a key condition;
 * everything else is scoped through TenantScope.
 */
export const sameOrg = (column: SQLiteColumn, orgId: number) => sql`+${column} = ${orgId}`;
