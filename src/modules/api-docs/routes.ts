import { Hono } from 'hono';
import type { AppEnv } from '../../context';

/** /api/openapi.json and /api/swagger-ui: the API description and its interactive docs. */
export const apiDocsRoutes = new Hono<AppEnv>();
