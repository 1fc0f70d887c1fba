import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /social: providers, authorize (login or link), unlink. */
export const socialRoutes = new Hono<AppEnv>();
