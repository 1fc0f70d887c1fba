import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { handleNotFound } from '../../middleware/errors';
import { orgLabelFromHost, resolveOrganization } from '../../middleware/tenant';
import { unknownOrganizationPage } from './unknown-organization-page';
import { type ShellOptions, signInShell } from './sign-in-shell';
import { isDemoOrganization } from '../demo/demo-info';
import { readSignupSettings } from '../platform-settings/settings';
import { acceptedLanguage, type LanguageCode } from '../../shared/languages';

/**
 * Everything outside /api: the built console from the assets binding. Page requests on a subdomain that
 * names no organisation get a real 404 page instead of the app.
 */
export const consoleRoutes = new Hono<AppEnv>().get('*', async (c) => {
  if (c.req.path.startsWith('/api/')) return handleNotFound(c);
  const isPage = !/\.[a-z0-9]+$/i.test(c.req.path);
  const label = orgLabelFromHost(c.req.header('host'));
  const org = isPage && label ? await resolveOrganization(c.var.db, label) : null;
  if (isPage && label && !org) {
    return c.html(unknownOrganizationPage(label), 404);
  }
  const asset = await c.env.ASSETS.fetch(c.req.raw);
  // A guest's home: the sign-in card painted by the html (not on the demo, whose card carries its notice).
  const shelled = org && c.req.path === '/' && isHtml(asset) && !isDemoOrganization(org.domain);
  const page = shelled ? withSignInShell(asset, acceptedLanguage(c.req.header('accept-language')), await shellOptions(c, org.name)) : asset;
  // Re-wrapped so later middleware can add headers (x-version) to what the assets binding returns.
  const res = new Response(page.body, page);
  const caching = cachingOf(c.req.path, asset);
  if (caching) res.headers.set('cache-control', caching);
  return res;
});

const isHtml = (asset: Response) => asset.ok && (asset.headers.get('content-type')?.startsWith('text/html') ?? false);

/**
 * The organisation's home, where a guest signs in: the sign-in card painted by the html itself (sign-in-shell.ts), and
 * the console's script started by the shell's script once that is painted (marked data-after-paint instead of loading
 * from the head).
 */
function withSignInShell(asset: Response, language: LanguageCode, options: ShellOptions): Response {
  const shell = signInShell(language, options);
  const page = new HTMLRewriter()
    // Mantine's colours hang on the scheme attribute, which the console sets when it starts (light, its default).
    .on('html', { element: (e) => void e.setAttribute('lang', language).setAttribute('data-mantine-color-scheme', 'light') })
    .on('head', { element: (e) => void e.append(shell.head, { html: true }) })
    .on('script[type="module"][src]', { element: (e) => void e.setAttribute('type', 'text/plain').setAttribute('data-after-paint', '') })
    .on('link[rel="modulepreload"]', { element: (e) => void e.removeAttribute('rel').setAttribute('data-after-paint', '') })
    .on('div#root', { element: (e) => void e.before(shell.body, { html: true }) })
    .transform(asset);
  // The page now differs from the built file its validators name, and by the browser's language.
  const res = new Response(page.body, page);
  res.headers.delete('etag');
  res.headers.delete('last-modified');
  res.headers.append('vary', 'Accept-Language');
  return res;
}

async function shellOptions(c: Context<AppEnv>, orgName: string): Promise<ShellOptions> {
  const signup = await readSignupSettings(c.env, c.var.db);
  return { orgName, applicationUrl: signup['signup.enabled'] ? signup['signup.applicationUrl'] : null };
}

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
