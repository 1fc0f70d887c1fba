import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { rateLimits } from '../db/schema';

// Fixed-window counters in D1. One atomic upsert per hit, so concurrent requests cannot slip past the limit.
export interface Limit {
  max: number;
  windowSeconds: number;
}

export interface LimitState {
  count: number;
  /** Seconds until the window resets. */
  retryAfter: number;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Counts one hit against `key` and returns the count within the current window. */
export async function hit(db: Database, key: string, limit: Limit): Promise<LimitState> {
  const now = nowSeconds();
  const expired = now - limit.windowSeconds;
  const row = await db.get<{ count: number; window_start: number }>(sql`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${now}, 1)
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN window_start <= ${expired} THEN 1 ELSE count + 1 END,
      window_start = CASE WHEN window_start <= ${expired} THEN ${now} ELSE window_start END
    RETURNING count, window_start`);
  return { count: row.count, retryAfter: Math.max(1, row.window_start + limit.windowSeconds - now) };
}

/**
 * Counts an attempt BEFORE it is checked and says whether it may be checked at all: a burst of parallel
 * attempts then gets at most `limit.max` checks (counting only failures afterwards would let all of them
 * through). Call `clear` when the attempt succeeds.
 */
export async function admitAttempt(db: Database, key: string, limit: Limit): Promise<LimitState & { admitted: boolean }> {
  const state = await hit(db, key, limit);
  return { ...state, admitted: state.count <= limit.max };
}

export async function clear(db: Database, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Cron housekeeping: windows older than a day are over for every limit we use. */
export async function pruneRateLimits(db: Database): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.windowStart} < ${Math.floor(Date.now() / 1000) - 86_400}`);
}
