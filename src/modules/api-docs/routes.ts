import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { buildOpenApiDocument } from './openapi-document';
import { swaggerInitScript, swaggerPage } from './swagger-page';

/** /api/openapi.json and /api/swagger-ui: the API description and its interactive docs (no organisation needed). */
export const apiDocsRoutes = new Hono<AppEnv>()
  .get('/openapi.json', (c) => c.json(buildOpenApiDocument(c.var.settings.version)))
  .get('/swagger-ui', (c) => c.html(swaggerPage()))
  .get('/swagger-ui/init.js', (c) => c.body(swaggerInitScript, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
