// The local Cloudflare Turnstile stand-in: the widget's script and the siteverify API on loopback, so the hosted sign-up
// forms (src/modules/form/public) run their bot check with no network.
//
//   node scripts/turnstile-stand-in.mjs   http://127.0.0.1:8031 (TURNSTILE_PORT)
//
// Point the worker at it with turnstileStandInVars(url): Cloudflare's published test site key and passing test secret,
// TURNSTILE_SCRIPT_URL=<url>/turnstile/v0/api.js and TURNSTILE_VERIFY_URL=<url>/turnstile/v0/siteverify.
//   GET  /turnstile/v0/api.js       the widget: for each element with class `cf-turnstile` (unless ?render=explicit) a
//                                   hidden input `cf-turnstile-response` inside the element, holding a token this
//                                   stand-in issued for this page load; data-callback called with it. window.turnstile
//                                   has render, reset, remove, getResponse, isExpired, ready; ?onload=<fn> is called.
//                                   Cloudflare's test site keys starting `2x` always block (no token, data-error-callback).
//   POST /turnstile/v0/siteverify   Cloudflare's API (form-urlencoded or JSON: secret, response, remoteip,
//                                   idempotency_key) and answer shape { success, "error-codes", challenge_ts, hostname,
//                                   action, cdata }. By secret: TEST_SECRETS.passes passes a token it issued, once, within
//                                   5 minutes (else invalid-input-response, or timeout-or-duplicate for a spent or
//                                   expired one; the same token with the same idempotency_key repeats its first answer);
//                                   TEST_SECRETS.fails always fails; TEST_SECRETS.spent always answers timeout-or-duplicate;
//                                   any other secret is invalid-input-secret.
//   POST /turnstile/v0/token        the stand-in's own (not Cloudflare's): { count?: 1..1000, hostname? } ->
//                                   { tokens }, fresh tokens for a benchmark or a test with no browser.
//   GET  /api/verifications         { items (newest first), counts }: what siteverify was asked and answered.
// Stricter than Cloudflare on purpose: its test secret passes any token, this one only tokens it issued, and only once,
// so the tests can see the platform refuse a made-up or reused token.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Cloudflare's published Turnstile test keys (developers.cloudflare.com/turnstile/troubleshooting/testing). */
export const TEST_SITE_KEY = '1x00000000000000000000AA';
export const TEST_SECRETS = {
  passes: '1x0000000000000000000000000000000AA',
  fails: '2x0000000000000000000000000000000AA',
  spent: '3x0000000000000000000000000000000AA',
};

const BASE = '/turnstile/v0';
/** A token is good for 300 s at Cloudflare; after that siteverify says timeout-or-duplicate. */
const TOKEN_TTL_MS = 300_000;
/** Tokens the widget script carries per page load: one for the widget, a few for reset(). */
const TOKENS_PER_SCRIPT = 3;
const MAX_BODY = 64 * 1024;
const KEEP_VERIFICATIONS = 500;

function sendJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A siteverify or token request's fields, from JSON or form-urlencoded; null when the body is neither. */
function parseFields(text, contentType) {
  if (/application\/json/i.test(contentType ?? '')) {
    try {
      const json = JSON.parse(text || '{}');
      return json && typeof json === 'object' && !Array.isArray(json) ? json : null;
    } catch {
      return null;
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** The host the page that loaded the widget was on (its Referer), as Cloudflare reports the solving page's hostname. */
function pageHostname(req) {
  try {
    return new URL(req.headers.referer ?? req.headers.origin ?? '').hostname || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** The widget script, carrying `tokens` for this page load (base64url strings: safe inside a JS literal). */
function widgetScript(tokens, { explicit, onload }) {
  return `/* Cloudflare Turnstile stand-in (scripts/turnstile-stand-in.mjs): local tokens, no challenge. */
(function () {
  var pool = ${JSON.stringify(tokens)};
  var widgets = {};
  var count = 0;
  function named(fn) { return typeof fn === 'function' ? fn : typeof fn === 'string' && typeof window[fn] === 'function' ? window[fn] : null; }
  function fill(w) {
    var token = w.blocked ? null : pool.shift() || null;
    w.input.value = token || '';
    w.label.textContent = token ? 'Verified (local Turnstile stand-in)' : 'Verification failed (local Turnstile stand-in)';
    var cb = named(token ? w.options.callback : w.options['error-callback']);
    if (cb) cb(token || 'standin-blocked');
  }
  function render(target, options) {
    var el = typeof target === 'string' ? document.querySelector(target) : target;
    if (!el) return undefined;
    options = options || {};
    var opt = function (name) { return options[name] !== undefined ? options[name] : el.getAttribute('data-' + name); };
    var sitekey = String(opt('sitekey') || '');
    var id = 'cf-standin-' + ++count;
    var input = document.createElement('input');
    input.type = 'hidden';
    input.name = opt('response-field-name') || 'cf-turnstile-response';
    var label = document.createElement('span');
    el.appendChild(label);
    el.appendChild(input);
    el.setAttribute('data-standin-widget', id);
    var w = { el: el, input: input, label: label, blocked: sitekey.indexOf('2x') === 0,
      options: { callback: opt('callback'), 'error-callback': opt('error-callback') } };
    widgets[id] = w;
    fill(w);
    return id;
  }
  function find(id) {
    if (id === undefined) for (var k in widgets) return widgets[k];
    return widgets[typeof id === 'string' ? id : id && id.getAttribute ? id.getAttribute('data-standin-widget') : ''];
  }
  window.turnstile = {
    render: render,
    ready: function (fn) { fn(); },
    reset: function (id) { var w = find(id); if (w) fill(w); },
    remove: function (id) { var w = find(id); if (w) { w.el.removeChild(w.input); w.el.removeChild(w.label); delete widgets[w.el.getAttribute('data-standin-widget')]; } },
    getResponse: function (id) { var w = find(id); return w ? w.input.value : undefined; },
    isExpired: function () { return false; }
  };
  function renderAll() {
    var list = document.querySelectorAll('.cf-turnstile');
    for (var i = 0; i < list.length; i++) if (!list[i].getAttribute('data-standin-widget')) render(list[i]);
  }
  if (${explicit ? 'false' : 'true'}) {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', renderAll);
    else renderAll();
  }
  var onload = named(${JSON.stringify(onload ?? '')});
  if (onload) onload();
})();
`;
}

function emptyCounts() {
  return { issued: 0, verifications: 0, passed: 0, refused: 0 };
}

function handler(state) {
  /** Issues `count` fresh tokens for `hostname`, forgetting the oldest beyond maxTokens. */
  const issue = (count, hostname) => {
    const tokens = [];
    for (let i = 0; i < count; i++) {
      const token = `standin.${randomBytes(24).toString('base64url')}`;
      state.tokens.set(token, { issuedAt: Date.now(), hostname, spent: null });
      tokens.push(token);
    }
    state.counts.issued += count;
    for (const oldest of state.tokens.keys()) {
      if (state.tokens.size <= state.maxTokens) break;
      state.tokens.delete(oldest);
    }
    return tokens;
  };
  state.issue = issue;

  /** Cloudflare's answer to one siteverify question. */
  const verify = (fields) => {
    const secret = typeof fields.secret === 'string' ? fields.secret : '';
    const token = typeof fields.response === 'string' ? fields.response : '';
    const key = typeof fields.idempotency_key === 'string' ? fields.idempotency_key : null;
    const fail = (...codes) => ({ success: false, 'error-codes': codes });
    const missing = [...(secret ? [] : ['missing-input-secret']), ...(token ? [] : ['missing-input-response'])];
    if (missing.length) return fail(...missing);
    if (secret === TEST_SECRETS.fails) return fail('invalid-input-response');
    if (secret === TEST_SECRETS.spent) return fail('timeout-or-duplicate');
    if (secret !== TEST_SECRETS.passes) return fail('invalid-input-secret');
    const issued = state.tokens.get(token);
    if (!issued) return fail('invalid-input-response');
    // A retry of the same check (same token, same idempotency key) gets the first answer again, as at Cloudflare.
    if (issued.spent) return key && issued.spent.key === key ? issued.spent.answer : fail('timeout-or-duplicate');
    if (Date.now() - issued.issuedAt > state.tokenTtlMs) return fail('timeout-or-duplicate');
    const answer = {
      success: true,
      'error-codes': [],
      challenge_ts: new Date(issued.issuedAt).toISOString(),
      hostname: issued.hostname,
      action: '',
      cdata: '',
    };
    issued.spent = { key, answer };
    return answer;
  };

  return async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const p = url.pathname;
      if (p === `${BASE}/api.js` && req.method === 'GET') {
        const tokens = issue(TOKENS_PER_SCRIPT, pageHostname(req));
        const explicit = url.searchParams.get('render') === 'explicit';
        const onload = url.searchParams.get('onload');
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(widgetScript(tokens, { explicit, onload: onload && /^[\w$.]{1,100}$/.test(onload) ? onload : null }));
      }
      if (p === `${BASE}/siteverify`) {
        if (req.method !== 'POST') return sendJson(res, 405, { success: false, 'error-codes': ['bad-request'] });
        const fields = parseFields(await readBody(req), req.headers['content-type']);
        const answer = fields ? verify(fields) : { success: false, 'error-codes': ['bad-request'] };
        state.counts.verifications++;
        state.counts[answer.success ? 'passed' : 'refused']++;
        state.verifications.unshift({
          at: new Date().toISOString(),
          response: typeof fields?.response === 'string' ? fields.response : null,
          remoteip: typeof fields?.remoteip === 'string' ? fields.remoteip : null,
          success: answer.success,
          errorCodes: answer['error-codes'],
        });
        state.verifications.length = Math.min(state.verifications.length, KEEP_VERIFICATIONS);
        return sendJson(res, 200, answer);
      }
      if (p === `${BASE}/token` && req.method === 'POST') {
        const fields = parseFields(await readBody(req), req.headers['content-type'] ?? 'application/json') ?? {};
        const count = fields.count === undefined ? 1 : Number(fields.count);
        if (!Number.isInteger(count) || count < 1 || count > 1000)
          return sendJson(res, 422, { code: 'validation_failed', errors: { count: 'a whole number from 1 to 1000' } });
        const hostname = typeof fields.hostname === 'string' && fields.hostname ? fields.hostname : 'localhost';
        return sendJson(res, 200, { tokens: issue(count, hostname) });
      }
      if (p === '/api/verifications' && req.method === 'GET') {
        return sendJson(res, 200, { items: state.verifications, counts: state.counts });
      }
      return sendJson(res, 404, { message: `Nothing at ${req.method} ${p}: try GET ${BASE}/api.js or POST ${BASE}/siteverify` });
    } catch (err) {
      if (!res.headersSent) sendJson(res, err.status ?? 500, { message: err.message });
    }
  };
}

/** The worker vars that point the hosted forms at a stand-in running at `url` (Cloudflare's test keys, passing). */
export function turnstileStandInVars(url) {
  return {
    TURNSTILE_SITE_KEY: TEST_SITE_KEY,
    TURNSTILE_SECRET_KEY: TEST_SECRETS.passes,
    TURNSTILE_SCRIPT_URL: `${url}${BASE}/api.js`,
    TURNSTILE_VERIFY_URL: `${url}${BASE}/siteverify`,
  };
}

/**
 * Starts the stand-in on 127.0.0.1 (port 0 picks a free one). Tokens pass for `tokenTtlMs`; at most `maxTokens` are
 * remembered (the oldest forgotten first). Resolves { port, url, vars, issueTokens(count, hostname?), close() }.
 */
export async function startTurnstileStandIn({ port = 8031, tokenTtlMs = TOKEN_TTL_MS, maxTokens = 200_000 } = {}) {
  const state = { tokenTtlMs, maxTokens, tokens: new Map(), verifications: [], counts: emptyCounts(), issue: null };
  const server = http.createServer(handler(state));
  // Node closes an idle kept-alive connection after 5 s, while the worker's runtime may be sending the next question on
  // it: that question's answer is lost ("Network connection lost."). Cloudflare keeps connections far longer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const bound = await new Promise((resolve, reject) => {
    const onError = (err) => reject(new Error(`The Turnstile stand-in could not listen on 127.0.0.1:${port}: ${err.message}`));
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(server.address().port);
    });
  });
  const url = `http://127.0.0.1:${bound}`;
  return {
    port: bound,
    url,
    vars: turnstileStandInVars(url),
    issueTokens: (count = 1, hostname = 'localhost') => state.issue(count, hostname),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const standIn = await startTurnstileStandIn({ port: Number(process.env.TURNSTILE_PORT) || 8031 });
  console.log(`Turnstile stand-in: ${standIn.vars.TURNSTILE_SCRIPT_URL} and ${standIn.vars.TURNSTILE_VERIFY_URL}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => standIn.close().then(() => process.exit(0)));
}
