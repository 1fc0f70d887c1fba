import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { nonDocumentSecurityHeaders } from '../../middleware/security-headers';
import { queueHit, type TrackingHit } from './hit';
import { readClickToken, readLinkClick, readOpenToken, type ClickRef } from './tokens';

// GET (and HEAD) /t/o/<token>: the open pixel; /t/c/<message token>/<link token> and /t/c/<token>: the click
// redirect (tokens.ts says which is which). Served on any host by the same
// worker, with no database read or write on the request path: the token says everything, and the hit goes to
// the events queue after the answer, batched with the isolate's other hits (hit.ts); count.ts counts it. A
// token that is not ours is a 404, never a redirect. Answers are built in one step with the policy of non-pages.

/** A 1x1 transparent GIF. */
const PIXEL = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0));
const NO_STORE = 'no-store, no-cache, must-revalidate, private, max-age=0';

function record(c: Context<AppEnv>, hit: Omit<TrackingHit, 'id' | 'method' | 'ua' | 'address' | 'asn' | 'aso' | 'at'>): void {
  const cf = c.req.raw.cf as { asn?: unknown; asOrganization?: unknown } | undefined;
  const now = new Date();
  const full: TrackingHit = {
    ...hit,
    id: crypto.randomUUID(),
    method: c.req.method,
    ua: c.req.header('user-agent')?.slice(0, 500) ?? null,
    address: c.req.header('cf-connecting-ip') ?? null,
    asn: typeof cf?.asn === 'number' ? cf.asn : null,
    aso: typeof cf?.asOrganization === 'string' ? cf.asOrganization.slice(0, 200) : null,
    at: now.toISOString(),
  };
  queueHit(c.env, c.executionCtx, full);
}

export const trackingRoutes = new Hono<AppEnv>()
  .on(['GET', 'HEAD'], '/o/:token', async (c) => {
    const ref = await readOpenToken(c.env, c.req.param('token'));
    if (!ref) return c.notFound();
    record(c, { o: ref.orgId, m: ref.messageId, kind: 'open' });
    const headers = { ...nonDocumentSecurityHeaders(c), 'content-type': 'image/gif', 'cache-control': NO_STORE };
    return new Response(c.req.method === 'HEAD' ? null : PIXEL, { status: 200, headers });
  })
  .on(['GET', 'HEAD'], '/c/:message/:link', async (c) => click(c, await readLinkClick(c.env, c.req.param('message'), c.req.param('link'))))
  .on(['GET', 'HEAD'], '/c/:token', async (c) => click(c, await readClickToken(c.env, c.req.param('token'))));

/** Records a click and redirects to the link's own URL; a token that is not ours is a 404 that goes nowhere. */
function click(c: Context<AppEnv>, ref: ClickRef | null): Response | Promise<Response> {
  if (!ref) return c.notFound();
  record(c, { o: ref.orgId, m: ref.messageId, kind: 'click', l: ref.linkIndex, u: ref.url, ...(ref.honeypot ? { h: 1 as const } : {}) });
  return new Response(null, { status: 302, headers: { ...nonDocumentSecurityHeaders(c), location: ref.url, 'cache-control': NO_STORE } });
}
