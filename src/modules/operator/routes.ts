import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /operator (platform host, operator token): pre-registration review, platform settings, demo reset. */
export const operatorRoutes = new Hono<AppEnv>();
