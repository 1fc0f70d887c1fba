import { Hono } from 'hono';

// The baseline of bench:tracking: the same answers as /t/o and /t/c (a 1x1 GIF, a 302) from a bare Hono handler on
// the same runtime, with no signature check, no hit recorded and no middleware.

const PIXEL = Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0));
const NO_STORE = 'no-store, no-cache, must-revalidate, private, max-age=0';

export default new Hono()
  .get('/health', (c) => c.text('ok'))
  .get('/t/o/:token', (c) => c.body(PIXEL, 200, { 'content-type': 'image/gif', 'cache-control': NO_STORE }))
  .get('/t/c/:message/:link', (c) => c.body(null, 302, { location: 'https://example.com/offer', 'cache-control': NO_STORE }))
  .get('/t/c/:token', (c) => c.body(null, 302, { location: 'https://example.com/offer', 'cache-control': NO_STORE }));
