import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /signup (platform host): become a client, payment, status. */
export const signupRoutes = new Hono<AppEnv>();
