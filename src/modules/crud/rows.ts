import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Context } from 'hono';
import type { Database } from '../../db/client';
import type { AppEnv } from '../../context';
import { TenantScope, type TenantTable } from '../../db/tenant-scope';
import { notFound } from '../../lib/api-error';
import { parseId } from '../../lib/validate';

/** The priority a new row takes to go last among the organisation's rows, computed inside the INSERT itself. */
export function nextPriority(table: TenantTable, priority: SQLiteColumn, orgId: number): SQL {
  return sql`(SELECT COALESCE(MAX(${priority}), 0) + 1 FROM ${table} WHERE ${table.orgId} = ${orgId})`;
}

/** The organisation's row whose id is in the route parameter `param`; a 404 when it is malformed or not theirs. */
export async function rowOr404<T extends TenantTable>(c: Context<AppEnv>, table: T, param = 'id', db: Database = c.var.db): Promise<T['$inferSelect']> {
  const id = parseId(c.req.param(param));
  const row = id ? await new TenantScope(db, table, c.var.org.id).findById(id) : undefined;
  if (!row) throw notFound();
  return row;
}
