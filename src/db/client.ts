import { drizzle } from 'drizzle-orm/d1';
import * as schema from './schema/index';

/** A drizzle client for this request's D1 binding (never held at module level). */
export function createDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof createDb>;
