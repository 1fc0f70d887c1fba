// bench:tracking — a burst of N open and click hits (default 20,000; CONCURRENCY=64 in flight) on the tracking
// endpoints of the local platform (wrangler dev): the real /t/o and /t/c, which check the signed token and put each
// hit on the events queue, beside a bare Hono handler answering the same pixel and redirect on the same runtime
// (test/bench/tracking/bare-worker.ts) in the same run, taking turns (ROUNDS=4). The tokens are real: a broadcast to
// M contacts (default 2,000) goes through the SMTP transport into the mail catcher, and the hits use the URLs of
// the caught emails (about five hits per recipient, as a popular broadcast gets). Prints
// requests/s and p99 latency for both, and the time from the burst's end until every hit is counted on the
// broadcast (the events queue consumer writing to D1).
// Run: npm run bench:tracking [N=...] [M=...] [CONCURRENCY=...] [ROUNDS=...] [PROFILE=1: where the isolate spent its CPU]
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startMailCatcher } from '../../scripts/mail-catcher.mjs';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { connectInspector, printProfile } from './support/inspector.mjs';
import { d1Execute, ledgerExecute, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { BENCH_WORKER_LOG_LEVEL, startBenchWorker } from './smtp/harness.mjs';

const N = Number(process.env.N) || 20_000;
const M = Number(process.env.M) || 2_000;
const CONCURRENCY = Number(process.env.CONCURRENCY) || 64;
const WARM_UP = 1_000;
const ROUNDS = Number(process.env.ROUNDS) || 4;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const HERE = path.dirname(new URL(import.meta.url).pathname);

/** The open pixel's and the offer link's paths in a caught email's html (the hidden honeypot link left out). */
function trackingPaths(html) {
  const urls = [...html.matchAll(/<(img|a)\s[^>]*?(?:src|href)="(http[^"]+\/t\/[oc]\/[^"]+)"([^>]*)>/g)];
  const open = urls.find((m) => m[1] === 'img');
  const click = urls.find((m) => m[1] === 'a' && !/display:none/.test(m[3]));
  if (!open || !click) throw new Error('a caught email has no tracking pixel or click link');
  return { open: new URL(open[2]).pathname, click: new URL(click[2]).pathname };
}

/**
 * `total` GETs of `paths` (in turn) with `concurrency` in flight on keep-alive connections; answers the wall time,
 * requests/s, p99 latency and how many answers had the wrong status.
 */
async function burst({ port, host, paths, total, concurrency, offset = 0 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = new Float64Array(total);
  let next = 0;
  let wrong = 0;
  const one = (i) =>
    new Promise((resolve, reject) => {
      const path = paths[(offset + i) % paths.length];
      const started = performance.now();
      const headers = { host, 'user-agent': CHROME, 'cf-connecting-ip': `198.51.100.${(offset + i) % 250}` };
      const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies[i] = performance.now() - started;
          if (res.statusCode !== (path.startsWith('/t/o/') ? 200 : 302)) wrong++;
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await one(next++);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return summary([latencies], seconds, wrong);
}

/** Requests/s over the summed wall time, and latency percentiles over every request. */
function summary(latencyLists, seconds, wrong) {
  const sorted = latencyLists.flatMap((l) => [...l]).sort((a, b) => a - b);
  const total = sorted.length;
  return { total, seconds, rps: total / seconds, p50: sorted[Math.floor(total * 0.5)], p99: sorted[Math.floor(total * 0.99)], wrong, latencies: latencyLists };
}

const combine = (results) =>
  summary(
    results.flatMap((r) => r.latencies),
    results.reduce((s, r) => s + r.seconds, 0),
    results.reduce((s, r) => s + r.wrong, 0),
  );

const report = (label, r) =>
  console.log(
    `${label}: ${r.total} requests in ${r.seconds.toFixed(2)} s, ${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.wrong ? `, ${r.wrong} WRONG answers` : ''}`,
  );

async function main() {
  const mailDir = mkdtempSync(path.join(os.tmpdir(), 'bench-tracking-mail-'));
  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, dir: mailDir });
  let platform = null;
  let bare = null;
  try {
    // Both runtimes at the same log level: at 'info' wrangler dev would post a line per request of ours (not of the
    // bare worker's) to its node process, which is not work of the endpoints and never happens deployed.
    platform = await startBenchPlatform('tracking', { logLevel: BENCH_WORKER_LOG_LEVEL });
    const { port, host } = platform;
    let token = await signIn(port, host);
    const api = async (method, path, json) => {
      let res = await apiRequest(port, host, { method, path: `/api/v1${path}`, token, json });
      if (res.status === 401) {
        token = await signIn(port, host);
        res = await apiRequest(port, host, { method, path: `/api/v1${path}`, token, json });
      }
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    // The emails whose tracking URLs the burst hits: a broadcast to M contacts, caught by the mail catcher.
    await d1Execute(platform, taggedContactsSql(M, 'Tracked'));
    const [{ id: tagId }] = await d1Execute(platform, "SELECT id FROM tags WHERE name = 'Tracked'");
    const integration = await api('POST', '/integration', {
      name: 'Catcher',
      type: 'smtp',
      details: { server: '127.0.0.1', port: catcher.smtpPort, ssl: false, tls: false },
      user: 'bench',
      password: 'unused',
    });
    await d1Execute(platform, `UPDATE integrations SET details = json_set(details, '$.user', NULL) WHERE id = ${integration.data.id}`);
    const sender = await api('POST', '/sender', { integration_id: integration.data.id, type: 'email', value: 'news@bench.relay.test', name: 'Bench' });
    const template = await api('POST', '/template', {
      type: 'email',
      name: 'Tracked',
      subject: 'Offer for {{ contact.name }}',
      body: '<p>Hello {{ contact.name }}, see <a href="https://shop.example.com/offer">the offer</a>.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    const subscription = await api('POST', '/subscription', { name: 'Offers' });
    const created = await api('POST', '/broadcast', {
      name: 'Tracked',
      type: 'email',
      sender_id: sender.data.id,
      template_id: template.data.id,
      subscription_id: subscription.data.id,
      contacts: { filter: { tags: [tagId] } },
    });
    const broadcastId = created.data.id;
    for (let b = created.data; b.status !== 'finished'; b = (await api('GET', `/broadcast/${broadcastId}`)).data) await new Promise((r) => setTimeout(r, 250));
    const mails = await (await fetch(`http://127.0.0.1:${catcher.httpPort}/messages.json`)).json();
    const emails = mails.filter((m) => (m.html ?? '').includes('/t/o/'));
    if (emails.length !== M) throw new Error(`expected ${M} caught emails with tracking, found ${emails.length}`);
    // Hits long after sending, as people make them (the "seconds after sending" signal is not what is measured).
    // The messages are in the organisation's ledger (src/modules/ledger).
    ledgerExecute(platform, `UPDATE messages SET sent_at = '2026-01-01T00:00:00.000Z' WHERE broadcast_id = ${broadcastId}`);
    const paths = emails.flatMap((m) => {
      const p = trackingPaths(m.html);
      return [p.open, p.click];
    });
    console.log(`${M} emails sent and caught; ${paths.length} tracking URLs (an open pixel and a link each), ${CONCURRENCY} requests in flight`);

    bare = await startBenchWorker(path.join(HERE, 'tracking', 'wrangler.toml'));
    const barePort = Number(new URL(bare.url).port);
    const bareHost = `127.0.0.1:${barePort}`;

    // Warm both up (isolates, JIT, connections); the warm-up hits are counted too.
    await burst({ port, host, paths, total: WARM_UP, concurrency: CONCURRENCY });
    await burst({ port: barePort, host: bareHost, paths, total: WARM_UP, concurrency: CONCURRENCY });

    // The machine is shared and noisy: the two take turns, ROUNDS times, each going first every other round (so
    // a slow spell lands on both), and ours goes last, so the counting is timed from the end of the last burst.
    const inspector = process.env.PROFILE ? await connectInspector(platform.inspectorPort) : null;
    if (inspector) {
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.start');
    }
    const rounds = [];
    let burstEnd = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const share = Math.floor(N / ROUNDS) + (r < N % ROUNDS ? 1 : 0);
      const runOurs = () => burst({ port, host, paths, total: share, concurrency: CONCURRENCY, offset: r * share });
      const runBare = () => burst({ port: barePort, host: bareHost, paths, total: share, concurrency: CONCURRENCY, offset: r * share });
      const oursFirst = (ROUNDS - r) % 2 === 0;
      const first = oursFirst ? await runOurs() : await runBare();
      const second = oursFirst ? await runBare() : await runOurs();
      rounds.push(oursFirst ? { ours: first, bare: second } : { ours: second, bare: first });
      if (!oursFirst) burstEnd = performance.now();
    }
    if (inspector) {
      printProfile((await inspector.call('Profiler.stop')).profile);
      inspector.close();
    }
    const ours = combine(rounds.map((r) => r.ours));
    const baseline = combine(rounds.map((r) => r.bare));
    report('tracking endpoints', ours);
    report('bare Hono handler', baseline);

    // Every hit counted, timed from the end of the last burst (ours).
    const expected = { opens: (N + WARM_UP) / 2, clicks: (N + WARM_UP) / 2 };
    let counted = null;
    let engagement = null;
    while (performance.now() - burstEnd < 120_000) {
      engagement = (await api('GET', `/broadcast/${broadcastId}`)).data.engagement;
      if (engagement.opens >= expected.opens && engagement.clicks >= expected.clicks) {
        counted = (performance.now() - burstEnd) / 1000;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    if (counted === null) throw new Error(`not every hit was counted within 120 s: ${JSON.stringify(engagement)} of ${JSON.stringify(expected)}`);
    if (engagement.opens !== expected.opens || engagement.clicks !== expected.clicks)
      throw new Error(`counted more hits than were made: ${JSON.stringify(engagement)} of ${JSON.stringify(expected)}`);
    console.log(
      `counted: ${engagement.opens} opens and ${engagement.clicks} clicks (all ${N + WARM_UP} hits, warm-up included) ${counted.toFixed(1)} s after the last burst's end (goal: within 10 s: ${counted <= 10 ? 'met' : 'NOT met'})`,
    );
    const ratio = ours.rps / baseline.rps;
    console.log(`goal: a ratio of at least 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'}`);
    console.log(`tracking: ${Math.round(ours.rps)} req/s | bare handler: ${Math.round(baseline.rps)} req/s | ratio ${ratio.toFixed(2)}`);
  } finally {
    closeHttp();
    bare?.stop();
    if (platform) await platform.stop();
    await catcher.close();
    rmSync(mailDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
