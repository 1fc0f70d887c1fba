// bench:webhooks — issue 38's goals for the webhooks: a tracked broadcast to N contacts (default 20,000) with opens and
// clicks, an endpoint subscribed to every event ("*") on the webhook catcher (scripts/webhook-catcher.mjs, in its own
// process) that answers 500 to FAIL_RATE of the deliveries (default 0.3) and is down for DOWN_S seconds (default 60)
// from the moment half the broadcast is sent. The retry schedule is compressed through the engine's one clock
// (WEBHOOK_CLOCK_SCALE, default 1000: no real 24 hours). In the same run, a first broadcast to the same N contacts
// with no endpoint gives the rate to compare with ("broadcast on/off", goal at least 0.7); a small broadcast to 2,000
// other contacts warms the platform up before either is timed.
// The events expected are the organisation's stream after the endpoint was made (those since its creation), read back from the pull API
// (GET /api/v1/events); delivered = the event ids the catcher accepted (answered 2xx) at least once. Goals: none lost,
// all delivered within 5 minutes of the receiver's return, every delivery signed (the catcher verifies each with
// the endpoint's secret), duplicates (same webhook-id accepted twice) counted, the worker isolate's heap flat (live
// heap after a forced GC when everything is delivered against after the first broadcast). Mail goes to the mail
// catcher, whose caught emails give the tracking URLs: OPENERS recipients (default N/4) open and click.
// Run: npm run bench:webhooks [N=...] [OPENERS=...] [FAIL_RATE=...] [DOWN_S=...] [CLOCK_SCALE=...] [DRAIN_TIMEOUT_S=...] [PROFILE=1]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/http.mjs';
import { ROOT } from '../../scripts/lib/run.mjs';
import { startMailCatcher } from '../../scripts/mail-catcher.mjs';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { connectInspector, printProfile, sampleHeap } from './support/inspector.mjs';
import { d1Execute, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { killOnSignal, signalGroup } from './support/process-groups.mjs';

const N = Number(process.env.N) || 20_000;
const OPENERS = Math.min(N, Number(process.env.OPENERS) || Math.floor(N / 4));
const FAIL_RATE = process.env.FAIL_RATE === undefined ? 0.3 : Number(process.env.FAIL_RATE);
const DOWN_MS = (process.env.DOWN_S === undefined ? 60 : Number(process.env.DOWN_S)) * 1000;
const CLOCK_SCALE = process.env.CLOCK_SCALE ?? '1000';
const DRAIN_TIMEOUT_MS = (Number(process.env.DRAIN_TIMEOUT_S) || 900) * 1000;
/** PROFILE=1: the worker isolate's hottest functions during the broadcast with the endpoint on. */
const PROFILE = process.env.PROFILE === '1';
/** The endpoints API (h-endpoints: src/modules/webhook/routes.ts, mounted under /api/v1). */
const ENDPOINTS_PATH = '/webhooks';
const HIT_CONCURRENCY = 32;
const WARM_UP = Math.min(N, 2_000);
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MB = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const met = (ok) => (ok ? 'met' : 'NOT met');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The webhook catcher in a process of its own (its HMACs and bookkeeping off this one's event loop); answers its URL and stop(). */
async function startCatcherProcess() {
  const port = await freePort(8929);
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'webhook-catcher.mjs')], {
    env: { ...process.env, WEBHOOK_PORT: String(port), WEBHOOK_SECRETS: path.join(os.tmpdir(), `bench-webhooks-none-${port}.json`) },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const forget = killOnSignal(child.pid);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/requests?limit=1`)).ok) break;
    } catch {
      if (i > 100) throw new Error('the webhook catcher did not start');
    }
    await sleep(100);
  }
  const call = async (method, p, json) => {
    const res = await fetch(`${url}${p}`, { method, body: json === undefined ? undefined : JSON.stringify(json) });
    if (!res.ok) throw new Error(`webhook catcher ${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const stop = () => {
    signalGroup(child.pid, 'SIGKILL');
    forget();
  };
  return { url, call, stop };
}

/** The open pixel's and the offer link's paths in a caught email's html (the hidden honeypot link left out). */
function trackingPaths(html) {
  const urls = [...html.matchAll(/<(img|a)\s[^>]*?(?:src|href)="(http[^"]+\/t\/[oc]\/[^"]+)"([^>]*)>/g)];
  const open = urls.find((m) => m[1] === 'img');
  const click = urls.find((m) => m[1] === 'a' && !/display:none/.test(m[3]));
  if (!open || !click) throw new Error('a caught email has no tracking pixel or click link');
  return [new URL(open[2]).pathname, new URL(click[2]).pathname];
}

/** GETs every path (HIT_CONCURRENCY in flight) as a browser would; answers how many got the wrong status. */
async function hit(port, host, paths) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: HIT_CONCURRENCY });
  let next = 0;
  let wrong = 0;
  const one = (p, i) =>
    new Promise((resolve, reject) => {
      const headers = { host, 'user-agent': CHROME, 'cf-connecting-ip': `198.51.100.${i % 250}` };
      const req = http.request({ host: '127.0.0.1', port, path: p, method: 'GET', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== (p.startsWith('/t/o/') ? 200 : 302)) wrong++;
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
  await Promise.all(
    Array.from({ length: HIT_CONCURRENCY }, async () => {
      while (next < paths.length) {
        const i = next++;
        await one(paths[i], i);
      }
    }),
  );
  agent.destroy();
  return wrong;
}

/** The isolate's live heap: its used size right after a forced collection. */
async function liveHeap(inspector) {
  await inspector.call('HeapProfiler.collectGarbage');
  return (await inspector.call('Runtime.getHeapUsage')).usedSize;
}

async function main() {
  const mailDir = mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-mail-'));
  const mail = await startMailCatcher({ smtpPort: 0, httpPort: 0, dir: mailDir });
  const receiver = await startCatcherProcess();
  let platform = null;
  try {
    // http and loopback allowed for the catcher (never in production), and the retry schedule compressed.
    platform = await startBenchPlatform('webhooks', { vars: { WEBHOOKS_ALLOW_LOCAL: 'true', WEBHOOK_CLOCK_SCALE: CLOCK_SCALE }, logLevel: 'warn' });
    const { port, host } = platform;
    let token = await signIn(port, host);
    const api = async (method, p, json) => {
      let res = await apiRequest(port, host, { method, path: `/api/v1${p}`, token, json });
      if (res.status === 401) {
        // An access token lives 15 minutes: a long run signs in again.
        token = await signIn(port, host);
        res = await apiRequest(port, host, { method, path: `/api/v1${p}`, token, json });
      }
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };

    await d1Execute(platform, taggedContactsSql(N, 'Hooked'));
    await d1Execute(platform, taggedContactsSql(WARM_UP, 'Warm'));
    const [{ id: tagId }] = await d1Execute(platform, "SELECT id FROM tags WHERE name = 'Hooked'");
    const [{ id: warmTagId }] = await d1Execute(platform, "SELECT id FROM tags WHERE name = 'Warm'");
    const integration = await api('POST', '/integration', {
      name: 'Catcher',
      type: 'smtp',
      details: { server: '127.0.0.1', port: mail.smtpPort, ssl: false, tls: false },
      user: 'bench',
      password: 'unused',
    });
    await d1Execute(platform, `UPDATE integrations SET details = json_set(details, '$.user', NULL) WHERE id = ${integration.data.id}`);
    const sender = await api('POST', '/sender', { integration_id: integration.data.id, type: 'email', value: 'news@bench.relay.test', name: 'Bench' });
    const template = await api('POST', '/template', {
      type: 'email',
      name: 'Hooked',
      subject: 'Offer for {{ contact.name }}',
      body: '<p>Hello {{ contact.name }}, see <a href="https://shop.example.com/offer">the offer</a>.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    const subscription = await api('POST', '/subscription', { name: 'Hooked news' });
    const inspector = await connectInspector(platform.inspectorPort);

    /** One tracked broadcast to the tag's contacts until it reads finished; `onProgress(b)` sees each poll. Answers seconds. */
    const runBroadcast = async (label, onProgress = () => {}, { tag = tagId, size = N } = {}) => {
      const started = performance.now();
      const created = await api('POST', '/broadcast', {
        name: `Webhooks ${label}`,
        type: 'email',
        sender_id: sender.data.id,
        template_id: template.data.id,
        subscription_id: subscription.data.id,
        track_opens: true,
        track_clicks: true,
        contacts: { filter: { tags: [tag] } },
      });
      let b = created.data;
      let lastLog = performance.now();
      while (b.status !== 'finished') {
        await sleep(250);
        if (performance.now() - started > 20 * 60_000) throw new Error(`not finished after 20 minutes: ${JSON.stringify(b)}`);
        b = (await api('GET', `/broadcast/${b.id}`)).data;
        if (b.status === 'paused') throw new Error(`the broadcast paused itself: ${b.paused_reason}`);
        await onProgress(b);
        if (performance.now() - lastLog > 5_000) {
          lastLog = performance.now();
          console.log(`  ... ${label} ${((performance.now() - started) / 1000).toFixed(1)} s ${b.status}: ${b.sent} sent, ${b.failed} failed of ${b.total}`);
        }
      }
      const seconds = (performance.now() - started) / 1000;
      if (b.sent !== size) throw new Error(`${label}: expected ${size} sent, got ${b.sent} (${b.failed} failed)`);
      console.log(`${label}: ${size} sent in ${seconds.toFixed(1)} s, ${Math.round(size / seconds)} msg/s`);
      return { seconds, id: b.id };
    };

    /** Every event of the stream after `cursor` (the pull API, a page at a time); answers them and the cursor at the end. */
    const eventsAfter = async (cursor) => {
      const events = [];
      for (;;) {
        const page = await api('GET', `/events?limit=500${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
        events.push(...page.data);
        cursor = page.next_cursor ?? cursor;
        if (!page.has_more) return { events, cursor };
      }
    };

    // 1. A small broadcast warms the platform up (isolates, JIT, the ledger), then the broadcast with no endpoint: the
    // rate to compare with.
    await runBroadcast('warm-up (not timed)', undefined, { tag: warmTagId, size: WARM_UP });
    const off = await runBroadcast('no endpoint');
    const heapBefore = await liveHeap(inspector);

    // 2. The endpoint on the catcher, every event; what the stream holds from here on is expected at the catcher.
    const endpoint = await api('POST', ENDPOINTS_PATH, { url: `${receiver.url}/relay`, description: 'bench:webhooks', event_types: ['*'] });
    const secret = endpoint.data?.secret ?? endpoint.secret;
    if (typeof secret !== 'string') throw new Error(`creating the endpoint answered no secret: ${JSON.stringify(endpoint)}`);
    const since = endpoint.data?.created_at;
    if (typeof since !== 'string') throw new Error(`creating the endpoint answered no created_at: ${JSON.stringify(endpoint)}`);
    await receiver.call('POST', '/api/secrets', { secret });
    await receiver.call('DELETE', '/api/requests');
    await receiver.call('POST', '/api/behaviour', { failRate: FAIL_RATE, downUntil: 0 });
    let { cursor } = await eventsAfter(null);
    console.log(
      `endpoint ${endpoint.data?.id ?? ''} on ${receiver.url}/relay; the catcher fails ${FAIL_RATE * 100} % and goes down for ${DOWN_MS / 1000} s at half the broadcast`,
    );

    // 3. The broadcast with the endpoint on; the receiver goes down when half is sent.
    const heap = sampleHeap(inspector);
    if (PROFILE) {
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.start');
    }
    const onStarted = performance.now();
    let downUntil = 0;
    const on = await runBroadcast('endpoint on', async (b) => {
      if (downUntil || b.sent < N / 2) return;
      downUntil = Date.now() + DOWN_MS;
      await receiver.call('POST', '/api/behaviour', { downUntil });
      console.log(`  the catcher is down until ${new Date(downUntil).toISOString()} (${b.sent} of ${N} sent)`);
    });
    if (!downUntil) {
      // A broadcast faster than one poll at half: the receiver goes down now, in the middle of the deliveries.
      downUntil = Date.now() + DOWN_MS;
      await receiver.call('POST', '/api/behaviour', { downUntil });
    }
    if (PROFILE) printProfile((await inspector.call('Profiler.stop')).profile, 50);

    // 4. Opens and clicks: OPENERS recipients of that broadcast (the newest mail caught) open it and click its link.
    const caught = await (await fetch(`http://127.0.0.1:${mail.httpPort}/messages.json?limit=${OPENERS}`)).json();
    const emails = caught.filter((m) => (m.html ?? '').includes('/t/o/'));
    if (emails.length !== OPENERS) throw new Error(`expected ${OPENERS} caught emails with tracking, found ${emails.length}`);
    const wrong = await hit(
      port,
      host,
      emails.flatMap((m) => trackingPaths(m.html)),
    );
    if (wrong) throw new Error(`${wrong} tracking hits got the wrong answer`);
    console.log(`${OPENERS} recipients opened and clicked (${OPENERS * 2} hits)`);

    // 5. Until every expected event is delivered (or the drain times out).
    const expected = new Set();
    let lastLog = 0;
    let delivered = new Set();
    let missing = [];
    let drainedAt = null;
    while (performance.now() - onStarted < DRAIN_TIMEOUT_MS) {
      const more = await eventsAfter(cursor);
      cursor = more.cursor;
      // An endpoint takes the events since its creation: one D1 recorded before it (absorbed later) is not its.
      for (const e of more.events) if (e.timestamp >= since) expected.add(e.id);
      delivered = new Set((await receiver.call('GET', '/api/event-ids')).ids);
      missing = [...expected].filter((id) => !delivered.has(id));
      if (missing.length === 0 && Date.now() > downUntil) {
        drainedAt = Date.now();
        break;
      }
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        console.log(`  ... ${expected.size} events expected, ${expected.size - missing.length} delivered, ${missing.length} to go`);
      }
      await sleep(1_000);
    }
    const drainSeconds = (performance.now() - onStarted) / 1000;
    const peak = await heap.stop();
    const heapAfter = await liveHeap(inspector);
    inspector.close();
    const { counts } = await receiver.call('GET', '/api/requests?limit=1');

    const lost = missing.length;
    const ratio = off.seconds / on.seconds;
    const afterReturn = drainedAt === null ? null : (drainedAt - downUntil) / 1000;
    const rate = counts.accepted / drainSeconds;
    console.log(
      `catcher: ${counts.received} requests, ${counts.accepted} accepted, ${counts.failed} failed on purpose, ${counts.dropped} dropped while down, ${counts.duplicates} duplicates, ${counts.unverified} without a good signature`,
    );
    console.log(
      `events: ${expected.size} expected (the stream after the endpoint was made), ${expected.size - lost} delivered at least once, ${lost} lost${lost ? ` (e.g. ${missing.slice(0, 3).join(', ')})` : ''}`,
    );
    console.log(`goal: none lost: ${met(lost === 0)}`);
    console.log(
      `goal: all delivered within 5 minutes of the receiver's return: ${afterReturn === null ? `NOT met (not all within ${DRAIN_TIMEOUT_MS / 1000} s)` : `${afterReturn.toFixed(1)} s: ${met(afterReturn <= 300)}`}`,
    );
    console.log(`goal: every delivery signed (verified with the endpoint's secret): ${met(counts.unverified === 0)}`);
    console.log(`duplicates (same webhook-id accepted again): ${counts.duplicates}`);
    console.log(
      `goal: broadcast rate with the endpoint on at least 0.7 of none: on ${Math.round(N / on.seconds)} msg/s, none ${Math.round(N / off.seconds)} msg/s, ${ratio.toFixed(2)}: ${met(ratio >= 0.7)}`,
    );
    // Flat: the live heap once everything is delivered within a quarter (or 8 MB) of the live heap before the endpoint.
    const flat = heapAfter <= Math.max(heapBefore * 1.25, heapBefore + 8 * 1024 * 1024);
    console.log(
      `goal: the heap flat: live ${MB(heapBefore)} MB before the endpoint, ${MB(heapAfter)} MB when all was delivered (peak used ${MB(peak.peakUsed)} MB, live peak ${MB(peak.peakLive)} MB over ${peak.samples} samples): ${met(flat)}`,
    );
    console.log(
      `webhooks: ${expected.size} events | ${lost} lost | ${counts.duplicates} duplicates | ${Math.round(rate)} deliveries/s | broadcast on/off ${ratio.toFixed(2)}`,
    );
  } finally {
    closeHttp();
    if (platform) await platform.stop();
    receiver.stop();
    await mail.close();
    rmSync(mailDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
