import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /organization: the current organisation. */
export const organizationRoutes = new Hono<AppEnv>();
