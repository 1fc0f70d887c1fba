import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from './client';

/** A table that belongs to an organisation. */
export type TenantTable = SQLiteTable & { id: SQLiteColumn; orgId: SQLiteColumn };

/**
 * The one mechanism that scopes queries to the current organisation: every read and write on a tenant table
 * goes through a TenantScope, which adds `org_id = ?` to the condition and to inserted rows. Another
 * organisation's row is simply not found.
 */
export class TenantScope<T extends TenantTable> {
  constructor(
    readonly db: Database,
    readonly table: T,
    readonly orgId: number,
  ) {}

  /** The organisation condition plus any others. */
  where(...conditions: (SQL | undefined)[]): SQL {
    return and(eq(this.table.orgId, this.orgId), ...conditions) as SQL;
  }

  /** `id IN (...)` through json_each, so long id lists do not hit D1's 100-parameter limit. */
  idIn(ids: readonly number[]): SQL {
    return sql`${this.table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  }

  selectWhere(condition?: SQL) {
    return this.db
      .select()
      .from(this.table as SQLiteTable)
      .where(this.where(condition));
  }

  async findById(id: number): Promise<T['$inferSelect'] | undefined> {
    const rows = await this.selectWhere(eq(this.table.id, id)).limit(1);
    return rows[0] as T['$inferSelect'] | undefined;
  }

  /** Inserts rows stamped with this organisation. */
  insert(values: Omit<T['$inferInsert'], 'orgId'>) {
    return this.db
      .insert(this.table)
      .values({ ...values, orgId: this.orgId } as T['$inferInsert'])
      .returning();
  }

  update(condition: SQL, values: Partial<T['$inferInsert']>) {
    return this.db
      .update(this.table)
      .set(values as never)
      .where(this.where(condition))
      .returning();
  }

  delete(condition?: SQL) {
    return this.db.delete(this.table).where(this.where(condition)).returning({ id: this.table.id });
  }
}
