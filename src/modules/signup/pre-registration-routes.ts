import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /pre-registration (platform host): requests while registration is paused. */
export const preRegistrationRoutes = new Hono<AppEnv>();
