import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../context';
import { chatWidgetOf } from '../modules/chat-widget/config';
import { apiOriginOf } from '../modules/console-settings/settings';

/**
 * The browser's second wall, set on every response of the worker (the console's static files included: the
 * assets binding runs behind the worker). One place for the whole policy: the middleware sets it on answers,
 * and presetSecurityHeaders gives it as one object to the few handlers that build their answer in one step.
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
 * The policy for one socket origin (none: answers that are never pages) and, when the platform has one, the
 * live-chat widget's origin (its script, frame and connections: the one exception, only when configured). Its
 * headers are computed once.
 */
const policyFor = (socketOrigin: string | null, chatOrigin: string | null = null, apiOrigin: string | null = null) => secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // The Vite build emits only module files: no inline script, no eval.
    scriptSrc: chatOrigin ? ["'self'", chatOrigin] : ["'self'"],
    // Mantine writes its theme as CSS variables into a <style> element at runtime and uses style attributes for
    // its style props; neither can carry a nonce, so inline styles are allowed (styles cannot run code).
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Email images in the template editor, preview and message view come from any https host the author used.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: [
      "'self'",
      ...(socketOrigin ? [socketOrigin] : []),
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
  // Lower case, as Headers reads them back: the preset object must not hold one header under two spellings.
  if (SECRET_URL_PATHS.some((prefix) => under(path, prefix))) out.push(['referrer-policy', 'no-referrer']);
  if (CROSS_ORIGIN_PATHS.some((prefix) => under(path, prefix))) out.push(['cross-origin-resource-policy', 'cross-origin']);
  if (c.req.url.startsWith('https:')) out.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return out;
}

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  // Built with presetSecurityHeaders already: nothing to add.
  if (c.res.headers.has('Content-Security-Policy')) return;
  await policyOf(c)(c, async () => {});
  for (const [name, value] of pathHeaders(c)) c.res.headers.set(name, value);
};

/** The policy over an empty answer, read back as a plain object (once per isolate). */
let pagelessPolicy: Promise<Record<string, string>> | null = null;
function pagelessPolicyHeaders(): Promise<Record<string, string>> {
  if (!pagelessPolicy) {
    const app = new Hono().use(policyFor(null)).get('*', (c) => c.body(null));
    pagelessPolicy = Promise.resolve(app.request('http://policy.invalid/')).then((res) => Object.fromEntries(res.headers));
  }
  return pagelessPolicy;
}

/**
 * The whole policy for this request as one object, for an answer built in one step with `new Response(body,
 * { headers })`: the tracking pixel and redirect, which a burst of opens asks for hundreds of times a second and
 * which are never pages (so connect-src names no socket).
 */
export async function presetSecurityHeaders(c: Context): Promise<Record<string, string>> {
  return { ...(await pagelessPolicyHeaders()), ...Object.fromEntries(pathHeaders(c)) };
}
