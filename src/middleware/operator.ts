import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { ApiError } from '../lib/api-error';
import { sha256Hex } from '../lib/tokens';
import { bearerToken } from './auth';

/**
 * The operator API (/api/v1/operator) answers only to `Authorization: Bearer <OPERATOR_TOKEN>`. With no token
 * configured the whole API is off (404), so a deployment never exposes it by accident.
 */
export const requireOperator = createMiddleware<AppEnv>(async (c, next) => {
  const configured = c.env.OPERATOR_TOKEN;
  if (!configured) throw new ApiError(404, 'not_found', 'Not found');
  const given = bearerToken(c.req.header('authorization'));
  // Compare digests, so the time taken says nothing about how much of the token matched.
  if (!given || (await sha256Hex(given)) !== (await sha256Hex(configured))) {
    throw new ApiError(401, 'unauthorized', 'Operator token required');
  }
  await next();
});
