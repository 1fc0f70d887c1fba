import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireOperator } from '../../middleware/operator';
import { nextDemoResetAt } from './demo-info';
import { readDemoResetAt, resetDemo } from './reset';

/** /operator/demo (operator token): POST /reset reseeds the shared demo now, whatever its reset time. */
export const demoOperatorRoutes = new Hono<AppEnv>().use('*', requireOperator).post('/reset', async (c) => {
  const org = await resetDemo(c.env, c.var.db);
  const resetAt = await readDemoResetAt(c.var.db);
  return c.json({ data: { organization: org, reset_at: resetAt, next_reset_at: nextDemoResetAt(c.env, resetAt) } });
});
