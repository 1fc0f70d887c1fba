import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../context';

/**
 * The browser's second wall, set on every response of the worker (the console's static files included: the
 * assets binding runs behind the worker). One place for the whole policy; handlers never set these headers.
 */

/** Paths whose URL carries a secret (a one-time code, a token, a signed link): no Referer may leave them. */
const SECRET_URL_PATHS = [/^\/password-reset\b/, /^\/sign-complete\b/, /^\/social-login\b/, /^\/api\/v1\/social\/callback\b/, /^\/unsubscribe\b/, /^\/t\//];

/** Paths loaded by other sites on purpose: the tracking pixel and redirect are fetched from inside mail clients. */
const CROSS_ORIGIN_PATHS = [/^\/t\//];

/** The live channel is a WebSocket on the same host; 'self' covers ws: only in newer browsers, so it is named. */
function liveSocketOrigin(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
}

const policy = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // The Vite build emits only module files: no inline script, no eval.
    scriptSrc: ["'self'"],
    // Mantine writes its theme as CSS variables into a <style> element at runtime and uses style attributes for
    // its style props; neither can carry a nonce, so inline styles are allowed (styles cannot run code).
    styleSrc: ["'self'", "'unsafe-inline'"],
    // Email images in the template editor, preview and message view come from any https host the author used.
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", liveSocketOrigin],
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

export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await policy(c, next);
  const path = c.req.path;
  if (SECRET_URL_PATHS.some((pattern) => pattern.test(path))) c.res.headers.set('Referrer-Policy', 'no-referrer');
  if (CROSS_ORIGIN_PATHS.some((pattern) => pattern.test(path))) c.res.headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
  if (new URL(c.req.url).protocol === 'https:') c.res.headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
};
