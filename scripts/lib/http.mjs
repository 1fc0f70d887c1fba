// Talking to the local platform from Node. Node's fetch does not resolve *.localhost, so requests go to
// 127.0.0.1 with the tenant's Host header, which is what the worker's tenancy reads.
import http from 'node:http';
import net from 'node:net';

/**
 * A request to http://127.0.0.1:<port><path> with the given Host header; `json` is sent as the JSON body.
 * Resolves { status, body }.
 */
export function requestWithHost(port, host, method, urlPath, { headers = {}, json, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = json === undefined ? undefined : JSON.stringify(json);
    const allHeaders = { ...headers, host, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) };
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, headers: allHeaders, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** GET http://127.0.0.1:<port><path> with the given Host header; resolves { status, body }. */
export function getWithHost(port, host, urlPath, timeoutMs = 5000) {
  return requestWithHost(port, host, 'GET', urlPath, { timeoutMs });
}

/**
 * Waits until GET <path> with the tenant host answers 200. Gives up after `timeoutMs`, or at once when
 * `child` (the server process) exits first.
 */
export async function waitForServer({ port, host, path: urlPath = '/api/v1/init/guest', timeoutMs = 180_000, child }) {
  const deadline = Date.now() + timeoutMs;
  let exited = null;
  const onExit = (code, signal) => (exited = signal ?? code);
  child?.once('exit', onExit);
  let last = 'no answer yet';
  try {
    while (Date.now() < deadline) {
      if (exited !== null) throw new Error(`the server exited (${exited}) before it answered ${urlPath}`);
      try {
        const res = await getWithHost(port, host, urlPath);
        if (res.status === 200) return;
        last = `HTTP ${res.status}: ${res.body.slice(0, 300)}`;
      } catch (err) {
        last = err.message;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
    throw new Error(`http://${host}${urlPath} did not answer 200 within ${Math.round(timeoutMs / 1000)}s (last: ${last})`);
  } finally {
    child?.off('exit', onExit);
  }
}

/** Whether a TCP port on 127.0.0.1 is free to listen on. */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** `preferred` when free, else the next free port above it (up to 100 tries), else one the OS picks. */
export async function freePort(preferred) {
  for (let port = preferred; port < preferred + 100; port++) {
    if (await portIsFree(port)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
