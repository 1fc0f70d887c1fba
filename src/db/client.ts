import { drizzle } from 'drizzle-orm/d1';
import { meteredD1 } from './d1-meter';
import * as schema from './schema/index';

/** A drizzle client for this request's D1 binding (never held at module level). */
export function createDb(d1: D1Database) {
  return drizzle(meteredD1(d1), { schema });
}

export type Database = ReturnType<typeof createDb>;
