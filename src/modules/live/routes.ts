import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { ApiError } from '../../lib/api-error';
import { LIVE_TOKEN_PROTOCOL } from '../../shared/contracts/import';

/**
 * GET /api/v1/live: the console's live-update WebSocket (events: src/shared/contracts/import.ts LiveEvent).
 * requireAuth has already checked the token (query `access_token` or subprotocol, see middleware/auth.ts);
 * the upgrade is handed to the organisation's OrgHub, which keeps the socket (hibernating) and publishes.
 */
export const liveRoutes = new Hono<AppEnv>().get('/', async (c) => {
  if (c.req.header('upgrade')?.toLowerCase() !== 'websocket') {
    throw new ApiError(400, 'bad_request', 'Expected a WebSocket upgrade (Upgrade: websocket)');
  }
  const hub = c.env.ORG_HUB.get(c.env.ORG_HUB.idFromName(String(c.var.org.id)));
  const res = await hub.fetch(c.req.raw);
  if (res.status !== 101 || !res.webSocket) return res;
  // A browser that offered subprotocols drops the connection unless the server picks one.
  const offered = (c.req.header('sec-websocket-protocol') ?? '').split(',').map((p) => p.trim());
  const headers = offered.includes(LIVE_TOKEN_PROTOCOL) ? { 'sec-websocket-protocol': LIVE_TOKEN_PROTOCOL } : undefined;
  return new Response(null, { status: 101, webSocket: res.webSocket, headers });
});
