import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { notFound } from '../../lib/api-error';
import { DEMO_LOGIN, DEMO_PASSWORD, demoResetHours, isDemoOrganization, nextDemoResetAt } from './demo-info';
import { readDemoResetAt } from './reset';
import type { DemoInfo } from '../../shared/contracts/demo';

/** /demo: the shared demo's info (reset interval, next reset, login); any other organisation has none (404). */
export const demoRoutes = new Hono<AppEnv>().get('/', async (c) => {
  if (!isDemoOrganization(c.var.org.domain)) throw notFound();
  const resetAt = await readDemoResetAt(c.var.db);
  const data: DemoInfo = {
    reset_length: demoResetHours(c.env),
    reset_at: resetAt,
    next_reset_at: nextDemoResetAt(c.env, resetAt),
    login: DEMO_LOGIN,
    password: DEMO_PASSWORD,
  };
  return c.json({ data });
});
