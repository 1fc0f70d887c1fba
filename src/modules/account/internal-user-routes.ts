import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /internal-user: password remind/reset, profile, password, account deletion. */
export const accountUserRoutes = new Hono<AppEnv>();
