import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/**
 * GET /api/health: the worker answers and D1 runs `SELECT 1`. For load balancers and uptime checks; the dashboard
 * benchmark uses it as its baseline round trip. No organisation, no sign-in, nothing counted.
 */
export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  await c.var.db.run(sql`SELECT 1`);
  return c.json({ status: 'ok' });
});
