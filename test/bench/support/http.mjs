// HTTP to the local platform from Node. Node's fetch cannot set the Host header that tenancy reads, so these
// go through node:http to 127.0.0.1 with Host: acme.localhost:<port>, on a keep-alive agent.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { SEED_USER } from '../../../scripts/lib/seed-data.mjs';

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/**
 * One request; resolves { status, body, headers } with body parsed as JSON when it is JSON. `via` is another
 * http.Agent than the shared one (8 sockets), e.g. one connection per simulated client.
 */
export function apiRequest(port, host, { method = 'GET', path, token, json, body, headers = {}, via = agent }) {
  return new Promise((resolve, reject) => {
    const allHeaders = { host, ...headers };
    if (token) allHeaders.authorization = `Bearer ${token}`;
    let payload = body;
    if (json !== undefined) {
      payload = JSON.stringify(json);
      allHeaders['content-type'] = 'application/json';
    }
    if (typeof payload === 'string') allHeaders['content-length'] = Buffer.byteLength(payload);
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: allHeaders, agent: via }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (payload && typeof payload.pipe === 'function') payload.pipe(req);
    else req.end(payload);
  });
}

/** The worker's own time for a call, from its `Server-Timing: total;dur=<ms>;desc="app"` header (src/app.ts). */
export function workerTime(headers) {
  const dur = /total;[^,]*dur=([\d.]+)/.exec(headers['server-timing'] ?? '')?.[1];
  if (dur === undefined) throw new Error('the answer has no Server-Timing total');
  return Number(dur);
}

/** Signs in as the seeded user; returns the access token. */
export async function signIn(port, host) {
  const res = await apiRequest(port, host, {
    method: 'POST',
    path: '/api/v1/internal-auth/token-create',
    json: { username: SEED_USER.username, password: SEED_USER.password },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token;
}

/** Streams a file as the raw body of POST /import/upload (with Content-Length); returns the upload data. */
export async function uploadFile(port, host, token, file, fileName = 'contacts.csv') {
  const size = statSync(file).size;
  const res = await apiRequest(port, host, {
    method: 'POST',
    path: `/api/v1/import/upload?file_name=${encodeURIComponent(fileName)}`,
    token,
    body: createReadStream(file, { highWaterMark: 1 << 20 }),
    headers: { 'content-type': 'text/csv', 'content-length': String(size) },
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * Starts an import and polls it every `pollMs` until it ends; returns { item, seconds } (from start to end).
 * Gives up when the import makes no progress for `stallMs`.
 */
export async function runImport(port, host, token, input, { pollMs = 250, stallMs = 120_000, onPoll } = {}) {
  const started = performance.now();
  const res = await apiRequest(port, host, { method: 'POST', path: '/api/v1/import', token, json: input });
  if (res.status !== 201) throw new Error(`starting the import failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.data.id;
  let progress = -1;
  let progressAt = performance.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, pollMs));
    const poll = await apiRequest(port, host, { path: `/api/v1/import/${id}`, token });
    if (poll.status !== 200) throw new Error(`polling the import failed: ${poll.status} ${JSON.stringify(poll.body)}`);
    onPoll?.(poll.body.data);
    if (poll.body.data.processed_bytes !== progress) {
      progress = poll.body.data.processed_bytes;
      progressAt = performance.now();
    } else if (performance.now() - progressAt > stallMs) {
      throw new Error(`the import made no progress for ${stallMs / 1000} s: ${JSON.stringify(poll.body.data)}`);
    }
    if (poll.body.data.status === 'success' || poll.body.data.status === 'fail') {
      return { item: poll.body.data, seconds: (performance.now() - started) / 1000 };
    }
  }
}

/** Closes the keep-alive sockets so the process can exit. */
export function closeHttp() {
  agent.destroy();
}
