import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /internal-api-key: the current user's API key. */
export const apiKeyRoutes = new Hono<AppEnv>();
