import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../context';
import { chatWidgetOf } from '../modules/chat-widget/config';
import { apiOriginOf } from '../modules/console-settings/settings';
import { SHELL_SCRIPT_HASH } from '../modules/console/sign-in-shell';

/**
 * The browser's second wall, set on every response of the worker (the console's static files included: the
 * assets binding runs behind the worker). One place for the whole policy: the middleware sets it on answers,
 * and nonDocumentSecurityHeaders gives the short form to the answers that are never pages.
 */

/** Paths whose URL carries a secret (a one-time code, a token, a signed link): no Referer may leave them. */
const SECRET_URL_PATHS = ['/password-reset', '/sign-complete', '/social-login', '/api/v1/social/callback', '/unsubscribe', '/t/'];

/** Paths loaded by other sites on purpose: the tracking pixel and redirect are fetched from inside mail clients. */
const CROSS_ORIGIN_PATHS = ['/t/'];

/** `path` is `prefix` or goes on below it ("/unsubscribe", "/unsubscribe/x"; not "/unsubscribed"). */
function under(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  const next = path.charCodeAt(prefix.length);
  return prefix.endsWith('/') || Number.isNaN(next) || next === 47 /* / */ || next === 63 /* ? */;
}

/** The live channel is a WebSocket on the same host; 'self' covers ws: only in newer browsers, so it is named. */
function liveSocketOrigin(url: URL): string {
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
}

/**
 * The policy for one live-socket origin and, when the platform has one, the live-chat widget's origin (its script,
 * frame and connections: the one exception, only when configured). Its headers are computed once.
 */
const policyFor = (socketOrigin: string, chatOrigin: string | null = null, apiOrigin: string | null = null) =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // The Vite build emits only module files, and no eval; the one inline script is the sign-in shell's, by its hash.
      scriptSrc: ["'self'", SHELL_SCRIPT_HASH, ...(chatOrigin ? [chatOrigin] : [])],
      // Mantine writes its theme as CSS variables into a <style> element at runtime and uses style attributes for
      // its style props; neither can carry a nonce, so inline styles are allowed (styles cannot run code).
      styleSrc: ["'self'", "'unsafe-inline'"],
      // Email images in the template editor, preview and message view come from any https host the author used.
      imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: [
        "'self'",
        socketOrigin,
        ...(chatOrigin ? [chatOrigin, chatOrigin.replace(/^http/, 'ws')] : []),
        // The operator pointed the console at an API on another host (CONSOLE_SETTINGS api.baseUrl).
        ...(apiOrigin ? [apiOrigin, apiOrigin.replace(/^http/, 'ws')] : []),
      ],
      ...(chatOrigin ? { frameSrc: [chatOrigin] } : {}),
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    crossOriginOpenerPolicy: 'same-origin',
    // Set below: only over https (a browser ignores it on http, and it must never pin localhost).
    strictTransportSecurity: false,
    permissionsPolicy: {
      camera: [],
      microphone: [],
      geolocation: [],
      payment: [],
      usb: [],
      serial: [],
      bluetooth: [],
      hid: [],
      midi: [],
      magnetometer: [],
      gyroscope: [],
      accelerometer: [],
      displayCapture: [],
      browsingTopics: [],
    },
  });

/** Policies by live-socket origin (one per host the worker answers), chat widget and API origin, kept bounded. */
const policies = new Map<string, MiddlewareHandler>();
function policyOf(c: Context<AppEnv>): MiddlewareHandler {
  const origin = liveSocketOrigin(new URL(c.req.url));
  const chatOrigin = chatWidgetOf(c.env)?.base_url ?? null;
  const apiOrigin = apiOriginOf(c.env);
  const key = `${origin} ${chatOrigin ?? ''} ${apiOrigin ?? ''}`;
  let policy = policies.get(key);
  if (!policy) {
    if (policies.size >= 1000) policies.clear();
    policy = policyFor(origin, chatOrigin, apiOrigin);
    policies.set(key, policy);
  }
  return policy;
}

/** The headers that depend on the path and scheme: referrer and cross-origin rules, HSTS over https only. */
function pathHeaders(c: Context): [string, string][] {
  const path = c.req.path;
  const out: [string, string][] = [];
  // Lower case, as Headers reads them back: the non-page headers must not hold one header under two spellings.
  if (SECRET_URL_PATHS.some((prefix) => under(path, prefix))) out.push(['referrer-policy', 'no-referrer']);
  if (CROSS_ORIGIN_PATHS.some((prefix) => under(path, prefix))) out.push(['cross-origin-resource-policy', 'cross-origin']);
  if (c.req.url.startsWith('https:')) out.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return out;
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  // Built with nonDocumentSecurityHeaders already (a tracking answer): nothing to add.
  if (c.res.headers.has('Content-Security-Policy')) return;
  await policyOf(c)(c, async () => {});
  for (const [name, value] of pathHeaders(c)) c.res.headers.set(name, value);
};

/**
 * The policy of answers that are never pages: the tracking pixel and redirect. Browsers apply CSP, framing, opener
 * and permission rules to documents only, so these carry the short form, which forbids everything should one be
 * opened as a page (no script or content of any kind, no framing, no sniffing); their Referer, cross-origin and
 * HSTS rules come from pathHeaders, as every answer's do. A burst of opens asks for them hundreds of times a
 * second, and the document policy's kilobyte of headers on each slowed the endpoints (bench:tracking, README).
 */
const NON_DOCUMENT_POLICY: Readonly<Record<string, string>> = {
  // Inline styles only: a browser opening the pixel as a page shows it in an image document it styles inline.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** The security headers of a non-page answer as one object, for an answer built in one step (`new Response`). */
export function nonDocumentSecurityHeaders(c: Context): Record<string, string> {
  return { ...NON_DOCUMENT_POLICY, ...Object.fromEntries(pathHeaders(c)) };
}

/** Sets the non-page headers on an answer made elsewhere (the tracking app's 404s and errors). */
export function withNonDocumentSecurityHeaders(c: Context, res: Response): Response {
  for (const [name, value] of Object.entries(nonDocumentSecurityHeaders(c))) res.headers.set(name, value);
  return res;
}
