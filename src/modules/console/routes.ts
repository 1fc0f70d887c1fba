import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { handleNotFound } from '../../middleware/errors';
import { orgLabelFromHost, resolveOrganization } from '../../middleware/tenant';
import { unknownOrganizationPage } from './unknown-organization-page';

/**
 * Everything outside /api: the built console from the assets binding. Page requests on a subdomain that
 * names no organisation get a real 404 page instead of the app.
 */
export const consoleRoutes = new Hono<AppEnv>().get('*', async (c) => {
  if (c.req.path.startsWith('/api/')) return handleNotFound(c);
  const isPage = !/\.[a-z0-9]+$/i.test(c.req.path);
  const label = orgLabelFromHost(c.req.header('host'));
  if (isPage && label && !(await resolveOrganization(c.var.db, label))) {
    return c.html(unknownOrganizationPage(label), 404);
  }
  // Re-wrapped so later middleware can add headers (x-version) to what the assets binding returns.
  const asset = await c.env.ASSETS.fetch(c.req.raw);
  return new Response(asset.body, asset);
});
