import type { Env } from '../../env';
import { KEPT_PREFIX } from './handle';

// The mail the bounce handler kept for the operator (unrecognised, forged, foreign, or for a message that is gone),
// as GET /operator/unrecognised-mail lists it: newest day first within R2's key order, a page at a time, with what
// the handler noted (from, to, why, the size it arrived with), and each mail itself by key.

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
