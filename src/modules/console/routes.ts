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
  const res = new Response(asset.body, asset);
  const caching = cachingOf(c.req.path, asset);
  if (caching) res.headers.set('cache-control', caching);
  return res;
});

/** The build's files under /assets/ carry a hash of their content in the name (Vite), so a name never changes content. */
const FINGERPRINTED = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+$/i;

/**
 * How long a browser keeps what the assets binding answered: a fingerprinted file a year without asking again (a new
 * build has new names); the html (the console's one page, whatever the path) is asked for again each time, so a
 * deploy is seen at once. Other files (favicon, robots.txt) keep the binding's own revalidating header.
 */
function cachingOf(path: string, asset: Response): string | null {
  if (!asset.ok) return null;
  if (FINGERPRINTED.test(path)) return 'public, max-age=31536000, immutable';
  if (asset.headers.get('content-type')?.startsWith('text/html')) return 'no-cache';
  return null;
}
