import type { Database } from '../../db/client';

/** A drizzle query builder (`toSQL`) or raw statement (`db.run(sql\`...\`)`, `getQuery`). */
export type BatchStatement = { toSQL(): { sql: string; params: unknown[] } } | { getQuery(): { sql: string; params: unknown[] } };

/**
 * Runs statements as one D1 batch (one transaction: all or nothing) and returns D1's raw results, rows under
 * `results` keyed by SQL column name. Unlike `db.batch`, it accepts raw `db.run(sql`...`)` statements with bound
 * values (drizzle-orm 0.45's D1 batch fails on those), which INSERT ... SELECT FROM json_each(?) needs.
 */
export async function rawBatch(db: Database, statements: BatchStatement[]): Promise<D1Result<Record<string, unknown>>[]> {
  if (statements.length === 0) return [];
  const prepared = statements.map((statement) => {
    const { sql, params } = 'toSQL' in statement ? statement.toSQL() : statement.getQuery();
    return db.$client.prepare(sql).bind(...params);
  });
  return db.$client.batch<Record<string, unknown>>(prepared);
}
