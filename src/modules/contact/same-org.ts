import { sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The organisation condition for child rows looked up by contact id: `+org_id = ?`. The unary plus keeps the
 * condition but stops SQLite (which has no table statistics on D1) from choosing an index that leads with org_id
 * and walking every row of the organisation, instead of the few rows of the contact(s) through their contact index.
 * Use it only next to a contact id condition; everything else is scoped through TenantScope.
 */
export const sameOrg = (column: SQLiteColumn, orgId: number) => sql`+${column} = ${orgId}`;
