// npm run bench:smtp — SMTP throughput of our transport (src/lib/smtp on cloudflare:sockets, in workerd under
// `wrangler dev`) beside worker-mailer (same workerd) and nodemailer pooled (Node), all in one run, into one local
// smtp-server sink running in its own process. Size: N messages per run (env N, default 10000).
// RTT_MS (default 0) puts a proxy in front of the sink that delays every packet by half of it each way, to see
// what round trips cost on a real network (loopback has almost none).
// Ends with: smtp (relay, 1 connection): <x> msg/s | worker-mailer (1 connection): <y> msg/s | ratio <x/y>
import http from 'node:http';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { startBenchWorker, startSink } from './harness.mjs';

const N = Math.max(1, Number(process.env.N) || 10000);
const CONNECTIONS = [1, 4];
const RTT_MS = Math.max(0, Number(process.env.RTT_MS) || 0);
/** ONLY=relay,worker-mailer,nodemailer picks the clients to run (default: all three). */
const ONLY = (process.env.ONLY || 'relay,worker-mailer,nodemailer').split(',').map((s) => s.trim());

/** A TCP proxy to `targetPort` that holds every chunk for `oneWayMs` in each direction (order kept). */
async function startDelayProxy(targetPort, oneWayMs) {
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const relay = (from, to) => {
      from.on('data', (chunk) => setTimeout(() => to.write(chunk), oneWayMs));
      from.on('end', () => setTimeout(() => to.end(), oneWayMs));
    };
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    stop: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * worker-mailer never clears the timer it starts for each server reply, and workerd refuses more than 10,000 active
 * timers per request (QuotaExceededError): one request stalls after ~2,500 messages. So its
 * runs go in requests of WORKER_MAILER_CHUNK messages (a new session each), timed end to end like the others.
 */
const WORKER_MAILER_CHUNK = 1000;

/** POST /run to the bench worker (node:http: a long run of a slow client may take minutes). */
function inWorkerOnce(worker, impl, sinkPort, n, connections, offset) {
  const body = JSON.stringify({ impl, port: sinkPort, n, connections, offset });
  return new Promise((resolve, reject) => {
    const req = http.request(`${worker.url}/run`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${impl}: HTTP ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function inWorker(worker, impl, sinkPort, n, connections) {
  const chunk = impl === 'worker-mailer' ? WORKER_MAILER_CHUNK : n;
  let sent = 0;
  let firstError = null;
  for (let offset = 0; offset < n; offset += chunk) {
    const r = await inWorkerOnce(worker, impl, sinkPort, Math.min(chunk, n - offset), connections, offset);
    sent += r.sent;
    firstError ??= r.firstError;
  }
  return { sent, firstError };
}

async function withNodemailer(sample, sinkPort, n, connections) {
  const transporter = nodemailer.createTransport({
    host: '127.0.0.1',
    port: sinkPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
  });
  let sent = 0;
  let firstError = null;
  const fill = (s, i) => s.replaceAll('{i}', String(i));
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      transporter
        .sendMail({
          from: { name: 'Acme News', address: 'news@acme.test' },
          to: `rcpt${i}@example.test`,
          subject: fill(sample.subject, i),
          html: fill(sample.html, i),
          text: fill(sample.text, i),
        })
        .then(
          () => sent++,
          (e) => (firstError ??= String(e)),
        ),
    ),
  );
  transporter.close();
  return { sent, firstError };
}

const rate = (n, ms) => Math.round(n / (ms / 1000));

async function main() {
  const sink = await startSink();
  const proxy = RTT_MS > 0 ? await startDelayProxy(sink.port, RTT_MS / 2) : null;
  const target = proxy ? proxy.port : sink.port;
  console.log(
    `bench:smtp: ${N} test-size emails per run (about 1.5 KB html + derived text) into a local smtp-server sink` +
      (proxy ? `, through a proxy adding ${RTT_MS} ms round-trip time` : ' on loopback'),
  );
  let worker;
  // Ctrl-C or a kill must not leave wrangler or the sink behind.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      worker?.stop();
      proxy?.stop();
      sink.stop();
      process.exit(130);
    });
  }
  try {
    worker = await startBenchWorker();
    const sample = await (await fetch(`${worker.url}/sample`)).json();
    // Warm up both workerd clients (JIT, module load) before measuring.
    await inWorker(worker, 'relay', target, Math.min(N, 500), 1);
    await inWorker(worker, 'worker-mailer', target, Math.min(N, 20), 1);

    const results = {};
    let problems = 0;
    const measure = async (label, connections, fn) => {
      const before = await sink.count();
      const started = performance.now();
      const { sent, firstError } = await fn();
      const ms = performance.now() - started;
      const arrived = (await sink.count()) - before;
      const value = rate(sent, ms);
      results[`${label}/${connections}`] = value;
      const note = sent !== N || arrived !== N ? `  (!) sent ${sent}, sink received ${arrived}${firstError ? `: ${firstError}` : ''}` : '';
      if (note) problems++;
      console.log(
        `  ${label.padEnd(34)} ${String(connections).padStart(1)} connection(s): ${String(value).padStart(6)} msg/s  (${(ms / 1000).toFixed(2)} s)${note}`,
      );
    };
    if (ONLY.includes('relay')) for (const c of CONNECTIONS) await measure('relay (src/lib/smtp, workerd)', c, () => inWorker(worker, 'relay', target, N, c));
    if (ONLY.includes('worker-mailer'))
      for (const c of CONNECTIONS) await measure('worker-mailer 1.2.1 (workerd)', c, () => inWorker(worker, 'worker-mailer', target, N, c));
    if (ONLY.includes('nodemailer'))
      for (const c of CONNECTIONS) await measure('nodemailer 10.6.0 pooled (Node)', c, () => withNodemailer(sample, target, N, c));

    const ours = results['relay (src/lib/smtp, workerd)/1'];
    const base = results['worker-mailer 1.2.1 (workerd)/1'];
    console.log(`  target: at least 2000 msg/s on one connection: ${ours >= 2000 ? 'met' : 'NOT met'}`);
    console.log(`smtp (relay, 1 connection): ${ours} msg/s | worker-mailer (1 connection): ${base} msg/s | ratio ${(ours / base).toFixed(1)}`);
    if (problems) process.exitCode = 1;
  } finally {
    worker?.stop();
    proxy?.stop();
    sink.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
