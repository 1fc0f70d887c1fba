// The V8 heap of the worker isolate, read through wrangler dev's DevTools inspector (Runtime.getHeapUsage):
// the memory Cloudflare's 128 MB per-isolate limit is about, without the simulated D1, R2 and queues that
// share the workerd process. A minimal WebSocket client over node:http (Node's built-in WebSocket is refused
// by the inspector proxy here), enough for request/response CDP calls.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** Connects to ws://127.0.0.1:<port>/ws; returns { call(method, params), close() }. */
export function connectInspector(port) {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/ws',
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': randomBytes(16).toString('base64') },
    });
    req.on('error', reject);
    req.on('response', (res) => reject(new Error(`inspector refused the WebSocket: HTTP ${res.statusCode}`)));
    req.on('upgrade', (_res, socket, head) => {
      let buffer = head;
      let fragments = [];
      let nextId = 1;
      const waiting = new Map();
      // The isolate's JavaScript contexts, announced after Runtime.enable (Runtime.evaluate needs one's id).
      const contexts = [];
      socket.on('data', (data) => {
        buffer = Buffer.concat([buffer, data]);
        for (;;) {
          if (buffer.length < 2) return;
          const opcode = buffer[0] & 0x0f;
          const fin = (buffer[0] & 0x80) !== 0;
          let length = buffer[1] & 0x7f;
          let at = 2;
          if (length === 126) {
            if (buffer.length < 4) return;
            length = buffer.readUInt16BE(2);
            at = 4;
          } else if (length === 127) {
            if (buffer.length < 10) return;
            length = Number(buffer.readBigUInt64BE(2));
            at = 10;
          }
          if (buffer.length < at + length) return;
          const payload = buffer.subarray(at, at + length);
          buffer = buffer.subarray(at + length);
          if (opcode === 0x8) return socket.end();
          if (opcode !== 0x1 && opcode !== 0x0) continue; // pings and binary frames: not used here
          fragments.push(payload);
          if (!fin) continue;
          const message = JSON.parse(Buffer.concat(fragments).toString('utf8'));
          fragments = [];
          if (message.method === 'Runtime.executionContextCreated') contexts.push(message.params.context);
          const pending = message.id !== undefined ? waiting.get(message.id) : undefined;
          if (pending) {
            waiting.delete(message.id);
            if (message.error) pending.reject(new Error(message.error.message));
            else pending.resolve(message.result);
          }
        }
      });
      const send = (text) => {
        const payload = Buffer.from(text, 'utf8');
        const mask = randomBytes(4);
        const header =
          payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
        const masked = Buffer.alloc(payload.length);
        for (let i = 0; i < payload.length; i++) masked[i] = payload[i] ^ mask[i % 4];
        socket.write(Buffer.concat([header, mask, masked]));
      };
      resolve({
        call(method, params = {}) {
          const id = nextId++;
          return new Promise((res, rej) => {
            waiting.set(id, { resolve: res, reject: rej });
            send(JSON.stringify({ id, method, params }));
          });
        },
        contexts,
        close() {
          socket.destroy();
        },
      });
    });
    req.end();
  });
}

/**
 * Samples the isolate's JS heap every `intervalMs`: usedSize and totalSize (V8 collects lazily, so these
 * include garbage), and every `gcEveryMs` the used size right after a forced collection (what the consumer
 * really holds). stop() returns the peaks in bytes.
 */
export function sampleHeap(inspector, intervalMs = 200, gcEveryMs = 2000) {
  let peakUsed = 0;
  let peakTotal = 0;
  let peakLive = 0;
  let samples = 0;
  let liveSamples = 0;
  const gcTimer = setInterval(async () => {
    try {
      await inspector.call('HeapProfiler.collectGarbage');
      const { usedSize } = await inspector.call('Runtime.getHeapUsage');
      peakLive = Math.max(peakLive, usedSize);
      liveSamples++;
    } catch {
      // skipped
    }
  }, gcEveryMs);
  let outstanding = 0;
  const take = async () => {
    // The isolate answers between tasks: keep a few calls queued so a busy stretch still gets sampled.
    if (outstanding >= 3) return;
    outstanding++;
    try {
      const { usedSize, totalSize } = await inspector.call('Runtime.getHeapUsage');
      peakUsed = Math.max(peakUsed, usedSize);
      peakTotal = Math.max(peakTotal, totalSize);
      samples++;
    } catch {
      // a sample lost while the isolate is busy is fine
    } finally {
      outstanding--;
    }
  };
  const timer = setInterval(take, intervalMs);
  void take();
  return {
    async stop() {
      clearInterval(timer);
      clearInterval(gcTimer);
      await take();
      return { peakUsed, peakTotal, samples, peakLive, liveSamples };
    },
  };
}

const frameName = (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`;

/**
 * PROFILE=1 in a bench: the functions that took the most CPU in the worker isolate, from Profiler.stop: by self time,
 * and by total time (the samples with the function anywhere on their stack, each counted once), which shows which
 * step of a request costs what.
 */
export function printProfile(profile, top = 25) {
  const self = new Map();
  const inclusive = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const us = dt[i] ?? 0;
    const key = frameName(byId.get(id).callFrame);
    self.set(key, (self.get(key) ?? 0) + us);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(frameName(byId.get(at).callFrame));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const print = (title, table) => {
    console.log(title);
    for (const [key, us] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(us / 1e3).toFixed(0).padStart(6)} ms  ${key}`);
  };
  print(`profile: ${(total / 1e6).toFixed(1)} s sampled in the isolate; top self time:`, self);
  print('top total time (the function anywhere on the stack):', inclusive);
}
