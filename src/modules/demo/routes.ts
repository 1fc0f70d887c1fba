import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /demo: the shared demo's info (reset interval, next reset, login). */
export const demoRoutes = new Hono<AppEnv>();
