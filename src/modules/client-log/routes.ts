import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { clientLogs } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { ApiError } from '../../lib/api-error';
import { hit, type Limit } from '../../lib/rate-limit';
import { verifyAccessToken } from '../../lib/tokens';
import { validJson } from '../../lib/validate';
import { clientLogSchema } from '../../shared/contracts/auth';
import { MESSAGES } from '../../shared/messages';
import { bearerToken } from '../../middleware/auth';

/** At most 30 client error reports a minute from one address to one organisation. */
export const CLIENT_LOG_LIMIT: Limit = { max: 30, windowSeconds: 60 };

/** POST /log: the console's error reports, kept per organisation. Guests may report too. */
export const clientLogRoutes = new Hono<AppEnv>().post('/', validJson(clientLogSchema), async (c) => {
  const ip = c.req.header('cf-connecting-ip') ?? 'local';
  const state = await hit(c.var.db, `log:${c.var.org.id}:${ip}`, CLIENT_LOG_LIMIT);
  if (state.count > CLIENT_LOG_LIMIT.max) {
    throw new ApiError(429, 'rate_limited', MESSAGES.rateLimited, undefined, { 'Retry-After': String(state.retryAfter) });
  }
  const token = bearerToken(c.req.header('authorization'));
  const claims = token ? await verifyAccessToken(token, c.var.settings.jwtSecret) : null;
  const input = c.req.valid('json');
  const [row] = await new TenantScope(c.var.db, clientLogs, c.var.org.id).insert({
    userId: claims && claims.org === c.var.org.id ? Number(claims.sub) : null,
    msg: input.msg,
    env: input.env,
    level: input.level,
    args: boundedArgs(input.args),
    ip,
    userAgent: c.req.header('user-agent')?.slice(0, 500) ?? null,
  });
  return c.json({ data: { id: row.id } }, 201);
});

/** Keeps the reported args unless they are oversized (a runaway context object). */
function boundedArgs(args: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (!args) return null;
  return JSON.stringify(args).length <= 20_000 ? args : { truncated: true };
}
