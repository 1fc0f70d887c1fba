import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';
import { createDb } from '../db/client';
import { readSettings } from '../env';

/** Per request: an id for logs, checked settings, the `x-version` header on every response, a db client. */
export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  c.set('requestId', c.req.header('cf-ray') ?? crypto.randomUUID());
  const settings = readSettings(c.env);
  c.set('settings', settings);
  c.set('db', createDb(c.env.DB));
  c.header('x-version', settings.version);
  await next();
  c.header('x-version', settings.version);
});
