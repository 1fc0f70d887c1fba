import type { Env } from '../../env';
import { KEPT_PREFIX } from './handle';

// The mail the bounce handler kept for the operator (unrecognised, forged, foreign, or for a message that is gone),
// as GET /operator/unrecognised-mail lists it: newest day first within R2's key order, a page at a time, with what
// the handler noted (from, to, why, the size it arrived with), and each mail itself by key. Kept KEPT_MAIL_DAYS days:
// a bounce quotes the message it is about, so it holds a recipient's address and more (pruneKeptMail).

export interface KeptMail {
  key: string;
  uploaded: string;
  stored_bytes: number;
  bytes: number;
  from: string;
  to: string;
  why: string;
}

export async function listKeptMail(env: Env, cursor: string | undefined, limit: number): Promise<{ items: KeptMail[]; cursor: string | null }> {
  const page = await env.FILES.list({ prefix: KEPT_PREFIX, cursor, limit, include: ['customMetadata'] });
  const items = page.objects.map((o) => ({
    key: o.key.slice(KEPT_PREFIX.length),
    uploaded: o.uploaded.toISOString(),
    stored_bytes: o.size,
    bytes: Number(o.customMetadata?.bytes ?? o.size),
    from: o.customMetadata?.from ?? '',
    to: o.customMetadata?.to ?? '',
    why: o.customMetadata?.why ?? '',
  }));
  return { items, cursor: page.truncated ? page.cursor : null };
}

/** One kept mail (message/rfc822), or null; `key` is a listed item's key (below KEPT_PREFIX only). */
export async function readKeptMail(env: Env, key: string): Promise<R2ObjectBody | null> {
  if (!/^\d{4}-\d{2}-\d{2}\/[0-9a-f-]{36}\.eml$/.test(key)) return null;
  return env.FILES.get(KEPT_PREFIX + key);
}

/** How long a kept mail stays: long enough for an operator to look into a wave of them, no longer (it names people). */
export const KEPT_MAIL_DAYS = 30;
/** Objects deleted per housekeeping run at most (R2 deletes up to 1,000 keys in one call). */
const PRUNED_PER_RUN = 1000;

/**
 * The housekeeping cron's step: deletes the kept mail of the days before KEPT_MAIL_DAYS ago. Keys start with their
 * day, so R2's listing (in key order) gives the oldest first and the run stops at the first day it keeps.
 */
export async function pruneKeptMail(bucket: R2Bucket, now = Date.now()): Promise<number> {
  const firstKept = new Date(now - KEPT_MAIL_DAYS * 86_400_000).toISOString().slice(0, 10);
  const page = await bucket.list({ prefix: KEPT_PREFIX, limit: PRUNED_PER_RUN });
  const old = page.objects.map((o) => o.key).filter((key) => key.slice(KEPT_PREFIX.length, KEPT_PREFIX.length + 10) < firstKept);
  if (old.length) await bucket.delete(old);
  return old.length;
}
