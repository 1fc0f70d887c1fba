import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /internal-user/sign-complete (new organisation's host): the emailed completion link. */
export const signCompleteRoutes = new Hono<AppEnv>();
