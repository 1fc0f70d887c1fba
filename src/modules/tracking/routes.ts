import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { handleNotFound } from '../../middleware/errors';
import { hashAddress, queueHit, type TrackingHit } from './hit';
import { readClickToken, readOpenToken } from './tokens';

// GET (and HEAD) /t/o/<token>: the open pixel; /t/c/<token>: the click redirect. Served on any host by the same
// worker, with no database read or write on the request path: the token says everything, and the hit goes to
// the events queue after the answer (src/modules/tracking/count.ts counts it). A token that is not ours is a
// 404, never a redirect.

/** A 1x1 transparent GIF. */
const PIXEL = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0));
const NO_STORE = 'no-store, no-cache, must-revalidate, private, max-age=0';

async function record(c: Context<AppEnv>, hit: Omit<TrackingHit, 'id' | 'method' | 'ua' | 'ip' | 'asn' | 'aso' | 'at'>): Promise<void> {
  const cf = c.req.raw.cf as { asn?: unknown; asOrganization?: unknown } | undefined;
  const now = new Date();
  const full: TrackingHit = {
    ...hit,
    id: crypto.randomUUID(),
    method: c.req.method,
    ua: c.req.header('user-agent')?.slice(0, 500) ?? null,
    ip: await hashAddress(c.env.SECRETS_KEY, c.req.header('cf-connecting-ip') ?? null, now),
    asn: typeof cf?.asn === 'number' ? cf.asn : null,
    aso: typeof cf?.asOrganization === 'string' ? cf.asOrganization.slice(0, 200) : null,
    at: now.toISOString(),
  };
  c.executionCtx.waitUntil(queueHit(c.env, full).catch((error) => console.error(JSON.stringify({ level: 'error', tracking_hit_lost: full, error: String(error) }))));
}

export const trackingRoutes = new Hono<AppEnv>()
  .on(['GET', 'HEAD'], '/o/:token', async (c) => {
    const ref = await readOpenToken(c.env, c.req.param('token'));
    if (!ref) return handleNotFound(c);
    await record(c, { o: ref.orgId, m: ref.messageId, kind: 'open' });
    const headers = { 'content-type': 'image/gif', 'cache-control': NO_STORE };
    return c.req.method === 'HEAD' ? c.body(null, 200, headers) : c.body(PIXEL, 200, headers);
  })
  .on(['GET', 'HEAD'], '/c/:token', async (c) => {
    const ref = await readClickToken(c.env, c.req.param('token'));
    if (!ref) return handleNotFound(c);
    await record(c, { o: ref.orgId, m: ref.messageId, kind: 'click', l: ref.linkIndex, u: ref.url, ...(ref.honeypot ? { h: 1 as const } : {}) });
    return c.body(null, 302, { location: ref.url, 'cache-control': NO_STORE });
  });
