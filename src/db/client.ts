import { drizzle } from 'drizzle-orm/d1';
import { meteredD1 } from './d1-meter';

/**
 * A drizzle client for this request's D1 binding (never held at module level). Without the schema: nothing uses
 * drizzle's relational queries (`db.query`), and with it each client walked every table of the schema when made,
 * about 2 % of a sending isolate's CPU (a client is made per request, per batch and per ledger call).
 */
export function createDb(d1: D1Database) {
  return drizzle(meteredD1(d1));
}

export type Database = ReturnType<typeof createDb>;
