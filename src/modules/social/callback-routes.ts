import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /social/callback/{provider} (platform host): where providers send the browser back. */
export const socialCallbackRoutes = new Hono<AppEnv>();
