// A real webhook receiver on loopback for the worker tests (in the vitest main process): test/vitest.worker.config.ts
// starts it and hands its URL to the worker as WEBHOOK_RECEIVER_URL; this file is also a global setup whose teardown
// stops it. Under /hooks/<anything> it records every request (method, headers, body, time) and answers what the test
// asked for that path: a queue of scripted answers (status, delay, redirect, a JSON body), then 200. /dns-query is a DNS-over-HTTPS
// stand-in (the JSON API) answering from a table the test sets, NXDOMAIN for anything else.
// Control: POST /_control/script {path, answers:[{status, delayMs?, location?, json?}]}, GET /_control/requests?path=,
// POST /_control/dns {name, type, data:[...]} (empty data: remove).
import { createServer } from 'node:http';

const HANDLE = Symbol.for('relay.test.webhook-receiver');
const TYPE_CODES = { A: 1, AAAA: 28, CNAME: 5, TXT: 16 };

export async function startWebhookReceiver() {
  /** @type {Map<string, {method: string, headers: Record<string, string>, body: string, at: number}[]>} */
  const requests = new Map();
  /** @type {Map<string, {status: number, delayMs?: number, location?: string, json?: unknown}[]>} */
  const scripts = new Map();
  /** @type {Map<string, string[]>} */
  const dns = new Map();
  const readBody = (req) =>
    new Promise((resolve) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  const json = (res, status, value) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    const body = await readBody(req);
    if (url.pathname === '/dns-query') {
      const name = (url.searchParams.get('name') ?? '').toLowerCase();
      const type = url.searchParams.get('type') ?? '';
      const data = dns.get(`${name} ${type}`);
      if (!data) return json(res, 200, { Status: 3 });
      return json(res, 200, { Status: 0, Answer: data.map((d) => ({ name: `${name}.`, type: TYPE_CODES[type], TTL: 60, data: d })) });
    }
    if (url.pathname === '/_control/script') {
      const { path, answers } = JSON.parse(body);
      scripts.set(path, answers);
      return json(res, 200, { ok: true });
    }
    if (url.pathname === '/_control/requests') return json(res, 200, requests.get(url.searchParams.get('path') ?? '') ?? []);
    if (url.pathname === '/_control/dns') {
      const { name, type, data } = JSON.parse(body);
      if (data.length === 0) dns.delete(`${name} ${type}`);
      else dns.set(`${name.toLowerCase()} ${type}`, data);
      return json(res, 200, { ok: true });
    }
    const list = requests.get(url.pathname) ?? [];
    list.push({ method: req.method ?? '', headers: /** @type {Record<string, string>} */ (req.headers), body, at: Date.now() });
    requests.set(url.pathname, list);
    const answer = scripts.get(url.pathname)?.shift() ?? { status: 200 };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (res.destroyed) return;
    // A JSON body when the script gives one (the Turnstile siteverify stand-in of test/worker/form).
    if (answer.json !== undefined) {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(answer.json));
    }
    res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
    res.end(answer.status === 200 ? 'ok' : `status ${answer.status}`);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  globalThis[HANDLE] = server;
  return { WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${port}` };
}

/** Global setup: nothing to start (the config did); the teardown stops the receiver. */
export default function setup() {
  return async () => {
    const server = globalThis[HANDLE];
    delete globalThis[HANDLE];
    server?.closeAllConnections?.();
    await new Promise((resolve) => (server ? server.close(() => resolve(undefined)) : resolve(undefined)));
  };
}
