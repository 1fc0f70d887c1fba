import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /session: the current user's sessions. */
export const sessionRoutes = new Hono<AppEnv>();
