import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../context';
import type { Database } from '../../db/client';
import { rawBatch } from '../crud/raw-batch';
import { addDaily, dayOf } from './daily';

// API requests per organisation and day without a D1 write per request: each isolate adds them up in memory and
// writes its sums every FLUSH_AFTER_MS (REQUEST_COUNT_FLUSH_MS), one upsert per organisation, from the waitUntil
// of the request that opened the window. What is lost: the sums of a window whose isolate is torn down before it ends (a few
// seconds of one isolate's requests); a flush that fails puts its sums back for the next window.

export const FLUSH_AFTER_MS = 5_000;

type Sums = Map<string, { orgId: number; day: string; requests: number; bytes: number }>;
let pending: Sums = new Map();
let windowOpen = false;

const bodyBytes = (length: string | null | undefined) => {
  const n = Number(length);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/** Adds one request of the organisation (and the bytes of its body and answer, when known) to this window. */
export function countRequest(c: Context<AppEnv>, orgId: number, bytes: number): void {
  const day = dayOf();
  const key = `${orgId}|${day}`;
  const sums = pending.get(key) ?? { orgId, day, requests: 0, bytes: 0 };
  sums.requests += 1;
  sums.bytes += bytes;
  pending.set(key, sums);
  if (windowOpen) return;
  windowOpen = true;
  const wait = Number(c.env.REQUEST_COUNT_FLUSH_MS ?? FLUSH_AFTER_MS);
  c.executionCtx.waitUntil(flushLater(c.var.db, Number.isFinite(wait) && wait >= 0 ? wait : FLUSH_AFTER_MS));
}

async function flushLater(db: Database, waitMs: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, waitMs));
  await flushRequestCounts(db);
}

/** Writes the window's sums now (tests call it; the window's owner calls it when the window ends). */
export async function flushRequestCounts(db: Database): Promise<void> {
  const sums = pending;
  pending = new Map();
  windowOpen = false;
  if (sums.size === 0) return;
  try {
    await rawBatch(
      db,
      [...sums.values()].map((s) => addDaily(db, s.orgId, { requests: s.requests, request_bytes: s.bytes }, s.day)!),
    );
  } catch (error) {
    for (const [key, s] of sums) {
      const now = pending.get(key);
      pending.set(key, now ? { ...now, requests: now.requests + s.requests, bytes: now.bytes + s.bytes } : s);
    }
    console.error(JSON.stringify({ level: 'error', stats: 'request counts not written yet', error: String(error) }));
  }
}

/**
 * Counts every API request of an organisation (after the tenant is known): request and answer body bytes.
 * REQUEST_COUNTING=off turns it off (the dashboard benchmark compares the two).
 */
export const countRequests = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const org = c.var.org;
  if (!org || c.env.REQUEST_COUNTING === 'off') return;
  countRequest(c, org.id, bodyBytes(c.req.header('content-length')) + bodyBytes(c.res.headers.get('content-length')));
});
