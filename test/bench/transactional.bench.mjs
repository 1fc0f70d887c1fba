// bench:transactional — the send API of issue 36 on the local platform (wrangler dev), in one run: N calls of
// POST /api/v1/send (default 5,000) from 50 concurrent clients, each its own organisation API key (scope send) and
// its own keep-alive connection, each call a template with data to an address that is no contact: first with the
// platform idle, each client calling again as soon as it is answered; then the same paced at PACED calls a second (a
// load the runtime carries); then unpaced while a RECIPIENTS-contact broadcast (default 50,000) sends through the same
// SMTP integration into the same local smtp-server sink. The sink records when it accepted each message and its
// X-Bench-Id header (set per call), so every call is matched to its message. For each phase: accepted requests per
// second, the latency from just before the call to the sink's acceptance (p50, p95), the backlog's drain after the
// last 202, the client's and the worker's own time per call (Server-Timing); the broadcast's rate beside the sends
// against its rate alone; the D1 rows the worker wrote per send (its D1 meter, during the idle phase). The baseline,
// after Relay's worker has stopped: the same calls against the runtime floor (transactional/floor: a worker making
// only a send's platform calls). Each figure with its goal; the last line: `transactional: <accepted> req/s | p95
// <idle> ms idle, <busy> ms beside a broadcast | broadcast kept <r> of its rate | runtime floor: <f> req/s | ratio <x>`
// (the idle phase's unpaced rate against the floor's). Messages lost or sent twice, and answers other than 202, are
// reported.
// Run: npm run bench:transactional [N=<sends per phase>] [RECIPIENTS=<broadcast size>] [PACED=<calls a second>]
// [MAX_RATE=<the integration's msg/s>] [PROFILE=1: the worker isolate's CPU during the idle phase]
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiRequest, closeHttp, signIn, workerTime } from './support/http.mjs';
import { d1Meter } from './support/d1-meter.mjs';
import { connectInspector, printProfile } from './support/inspector.mjs';
import { d1Execute, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { BENCH_WORKER_LOG_LEVEL, startBenchWorker, startSink } from './smtp/harness.mjs';
import { broadcastKept, deliveries, GOALS, phaseFigures, verdict } from './transactional/figures.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.N) || 5_000;
const RECIPIENTS = Number(process.env.RECIPIENTS) || 50_000;
const CLIENTS = 50;
// No rate on the integration by default: the sink takes whatever comes, so the broadcast's rate beside the sends says
// what the sends cost it on the one runtime. With a rate the send gate gives each line its share while both send
// (SINGLES_SHARE, src/modules/sending/send-gate.ts) and "kept" would be that rule's arithmetic: MAX_RATE shows it.
const MAX_RATE = Number(process.env.MAX_RATE) || null;
/**
 * The paced phase's calls per second (idle, after the unpaced one): a load the runtime carries, where the latency is
 * the platform's and not the wait for a saturated thread. About a quarter of the runtime floor on the 2-core
 * machine: at 100 a second, about half of it, the delivery fell behind at N=5,000.
 */
const PACED = Number(process.env.PACED) || 50;
/** PROFILE=1: where the worker isolate spent its CPU during the idle phase (self time). */
const PROFILE = Boolean(process.env.PROFILE);
/** The header each call sets (an X- header of the allow-list) and the sink records. */
const BENCH_HEADER = 'X-Bench-Id';
/** The busy phase's sends start once this share of the broadcast is at the sink (its runner and consumer warm). */
const LEAD = 0.2;
/** The worker writes its request counts every 5 s (src/modules/stats/requests.ts): the meter waits for the last. */
const REQUEST_COUNT_FLUSH_MS = 5_000;
/** A wait gives up when the sink has received nothing more for this long. */
const STALL_MS = 60_000;

const clock = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const ms = (value) => (Number.isFinite(value) ? `${Math.round(value)} ms` : 'none');

/** Waits until `read()` reaches `target`; gives up (answers the last value) when it has not moved for STALL_MS. */
async function waitFor(read, target) {
  let last = await read();
  let movedAt = performance.now();
  while (last < target && performance.now() - movedAt < STALL_MS) {
    await sleep(50);
    const now = await read();
    if (now !== last) movedAt = performance.now();
    last = now;
  }
  return last;
}

/** The organisation's setup: limits raised, an integration to the sink, a sender, templates, keys; answers what the phases use. */
async function setUp(platform, sink, operatorToken) {
  const { port, host } = platform;
  let token = await signIn(port, host);
  const api = async (method, path, json) => {
    let res = await apiRequest(port, host, { method, path: `/api/v1${path}`, token, json });
    // An access token lives 15 minutes: a long run signs in again.
    if (res.status === 401) {
      token = await signIn(port, host);
      res = await apiRequest(port, host, { method, path: `/api/v1${path}`, token, json });
    }
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  // The operator's limits, high enough that they never refuse the bench (its 50 keys send as fast as they can).
  const limits = await apiRequest(port, `localhost:${port}`, {
    method: 'PUT',
    path: '/api/v1/operator/organizations/acme/api-limits',
    token: operatorToken,
    json: { key_requests_per_second: 10_000, key_messages_per_hour: 10_000_000, org_requests_per_second: 100_000, org_messages_per_hour: 100_000_000 },
  });
  if (limits.status !== 200) throw new Error(`raising the API limits: ${limits.status} ${JSON.stringify(limits.body)}`);

  // An smtp integration to the sink (which offers no AUTH: the stored user is cleared), a sender, the templates.
  const integration = await api('POST', '/integration', {
    name: 'Sink',
    type: 'smtp',
    details: { server: '127.0.0.1', port: sink.port, ssl: false, tls: false, domain: 'bench.relay.test' },
    user: 'bench',
    password: 'unused',
    ...(MAX_RATE ? { max_rate: MAX_RATE } : {}),
  });
  await d1Execute(platform, `UPDATE integrations SET details = json_set(details, '$.user', NULL) WHERE id = ${integration.id}`);
  const sender = await api('POST', '/sender', { integration_id: integration.id, type: 'email', value: 'hello@bench.relay.test', name: 'Bench App' });
  const transactional = await api('POST', '/template', {
    type: 'email',
    name: 'Sign-in code',
    subject: 'Your sign-in code is {{ data.code }}',
    body: '<p>Hello {{ data.name }},</p><p>Your sign-in code is <b>{{ data.code }}</b>. It expires in 10 minutes.</p><p><a href="{{ data.link }}">Sign in</a></p><p>If this was not you, ignore this mail.</p>',
  });
  const news = await api('POST', '/template', {
    type: 'email',
    name: 'Bench news',
    subject: 'News for {{ contact.name }}',
    body: `<h1>Hello {{ contact.name }}</h1><p>This month at {{ organization.name }}.</p>${'<p>A paragraph of news with <a href="https://acme.test/offers">a link</a>.</p>'.repeat(4)}<p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>`,
  });
  const subscription = await api('POST', '/subscription', { name: 'Bench news' });
  const keys = [];
  for (let i = 0; i < CLIENTS; i++) keys.push((await api('POST', '/organization-api-key', { name: `Bench client ${i + 1}`, scope: 'send' })).key);
  return { api, keys, senderId: sender.id, templateId: transactional.id, newsTemplateId: news.id, subscriptionId: subscription.id };
}

/** One call's body: the sign-in template with its data, the bench id as a header (matched at the sink) and as metadata. */
const sendBody = (setup, id, i) => ({
  to: `${id}@users.example.test`,
  sender_id: setup.senderId,
  template_id: setup.templateId,
  data: { name: `Person ${i}`, code: String(100_000 + ((i * 7919) % 900_000)), link: `https://app.example.test/sign-in?token=${id}` },
  headers: { [BENCH_HEADER]: id },
  metadata: { bench_id: id },
});

/**
 * `total` calls of POST /send from CLIENTS clients (each its key and one keep-alive connection); answers each call's
 * timing. Without `perSecond` each client calls again as soon as it is answered (the runtime's most); with it, call i
 * waits for its time, i / perSecond after the first (a client late for it calls at once).
 */
async function runSends(platform, setup, label, total = N, perSecond = null) {
  const calls = new Array(total);
  let next = 0;
  const start = clock();
  const client = async (key) => {
    const via = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (next < total) {
        const i = next++;
        const id = `${label}-${i}`;
        if (perSecond) await sleep(start + (i * 1000) / perSecond - clock());
        const started = clock();
        let res;
        try {
          res = await apiRequest(platform.port, platform.host, { method: 'POST', path: '/api/v1/send', token: key, json: sendBody(setup, id, i), via });
        } catch (error) {
          res = { status: 0, body: String(error), headers: {} };
        }
        const answered = clock();
        let worker = null;
        try {
          worker = workerTime(res.headers);
        } catch {
          // an answer without Server-Timing (a connection error): counted apart
        }
        calls[i] = { id, started, answered, status: res.status, workerMs: worker, error: res.status === 202 ? null : res.body };
      }
    } finally {
      via.destroy();
    }
  };
  await Promise.all(setup.keys.map(client));
  return calls;
}

/** A phase: the sends, then the wait until the sink has every accepted one (or stalls); answers the calls. */
async function phase(platform, setup, sink, label, taggedBefore, perSecond = null) {
  const calls = await runSends(platform, setup, label, N, perSecond);
  const accepted = calls.filter((c) => c.status === 202).length;
  const reached = await waitFor(sink.tagged, taggedBefore + accepted);
  if (reached < taggedBefore + accepted)
    console.log(`  ${label}: the sink stopped at ${reached - taggedBefore} of ${accepted} accepted sends (waited ${STALL_MS / 1000} s)`);
  return calls;
}

function printPhase(label, f, p95Goal, paced = null) {
  const statuses = Object.entries(f.statuses)
    .map(([s, n]) => `${n} × ${s}`)
    .join(', ');
  console.log(`${label}: ${f.calls} calls from ${CLIENTS} clients in ${(f.wallMs / 1000).toFixed(1)} s (${statuses})`);
  for (const e of f.errors.slice(0, 5)) console.log(`  answer: ${e}`);
  const judged = paced
    ? `called at ${paced} a second: the goal of ${GOALS.acceptedPerSecond} is judged without pacing`
    : `goal at least ${GOALS.acceptedPerSecond}: ${verdict(f.perSecond >= GOALS.acceptedPerSecond)}`;
  console.log(`  accepted: ${Math.round(f.perSecond)} req/s (${judged})`);
  console.log(`  call to the sink's acceptance: p50 ${ms(f.p50)}, p95 ${ms(f.p95)} (goal at most ${p95Goal} ms: ${verdict(f.p95 <= p95Goal)})`);
  console.log(`  drained ${ms(f.drainMs)} after the last 202 (goal at most ${GOALS.drainMs} ms: ${verdict(f.drainMs <= GOALS.drainMs)})`);
  console.log(
    `  time per call: client p50 ${ms(f.answerP50)}, p95 ${ms(f.answerP95)}; inside the worker (Server-Timing) p50 ${ms(f.workerP50)}, p95 ${ms(f.workerP95)}${f.withoutTiming ? ` (${f.withoutTiming} answers without it)` : ''}`,
  );
  const failed = Object.entries(f.statuses).reduce((n, [status, count]) => n + (Number(status) >= 500 || Number(status) === 0 ? count : 0), 0);
  const wrong = [
    failed && `${failed} calls answered 5xx or cut off (the answers above; the worker's log is wrangler.log)`,
    f.lost && `${f.lost} accepted sends never reached the sink`,
    f.twice && `${f.twice} sends reached the sink twice`,
    f.unanswered && `${f.unanswered} messages reached the sink without a 202`,
  ].filter(Boolean);
  for (const w of wrong) console.log(`  DEFECT: ${w}`);
}

/** Starts the broadcast to the tag and waits until LEAD of it is at the sink; answers its id. */
async function startBroadcast(setup, sink, tagId, countBefore) {
  const created = await setup.api('POST', '/broadcast', {
    name: `Bench ${RECIPIENTS}`,
    type: 'email',
    sender_id: setup.senderId,
    template_id: setup.newsTemplateId,
    subscription_id: setup.subscriptionId,
    contacts: { filter: { tags: [tagId] } },
  });
  const lead = Math.ceil(RECIPIENTS * LEAD);
  const reached = (await waitFor(sink.count, countBefore + lead)) - countBefore;
  if (reached < lead) throw new Error(`the broadcast stalled at ${reached} messages: ${JSON.stringify(await setup.api('GET', `/broadcast/${created.id}`))}`);
  return created.id;
}

/** Waits for the broadcast to read finished; answers it. */
async function finishBroadcast(setup, id) {
  const started = performance.now();
  for (;;) {
    const b = await setup.api('GET', `/broadcast/${id}`);
    if (b.status === 'finished') return b;
    if (b.status === 'paused') throw new Error(`the broadcast paused itself: ${b.paused_reason}`);
    if (performance.now() - started > 20 * 60_000) throw new Error(`the broadcast is not finished after 20 minutes: ${JSON.stringify(b)}`);
    await sleep(250);
  }
}

/**
 * The baseline: the same N calls from the same clients against the runtime's floor for a send (transactional/floor:
 * a worker making only the platform calls a send makes, with no work of Relay's and no delivery), on its own wrangler
 * dev after Relay's has stopped. Answers its accepted requests per second.
 */
async function floorRate(setup) {
  const floor = await startBenchWorker(path.join(HERE, 'transactional', 'floor', 'wrangler.toml'));
  try {
    const made = await fetch(`${floor.url}/setup`, { method: 'POST' });
    if (!made.ok) throw new Error(`the floor worker's setup: ${made.status} ${await made.text()}`);
    const port = Number(new URL(floor.url).port);
    const target = { port, host: `127.0.0.1:${port}` };
    await runSends(target, setup, 'floor-warm', CLIENTS);
    // Figured as Relay's phases are; nothing goes to the sink, so only the calls' figures apply.
    const f = phaseFigures(await runSends(target, setup, 'floor'), { at: new Map(), twice: new Set() });
    if (f.accepted !== f.calls)
      console.log(`  DEFECT: the floor worker answered ${f.calls - f.accepted} of ${f.calls} calls otherwise: ${f.errors.slice(0, 3).join('; ')}`);
    return f.perSecond;
  } finally {
    floor.stop();
  }
}

async function main() {
  const sink = await startSink({ record: BENCH_HEADER });
  const operatorToken = randomBytes(24).toString('hex');
  let platform = null;
  try {
    // wrangler at 'warn', as bench:tracking: at 'info' it posts a line per request to its node process, work a
    // deployed worker never does, and this bench makes 2 N requests.
    platform = await startBenchPlatform('transactional', { vars: { OPERATOR_TOKEN: operatorToken }, logLevel: BENCH_WORKER_LOG_LEVEL });
    const setup = await setUp(platform, sink, operatorToken);
    const seeded = performance.now();
    await d1Execute(platform, taggedContactsSql(RECIPIENTS, 'Bench'));
    const [{ id: tagId }] = await d1Execute(platform, "SELECT id FROM tags WHERE name = 'Bench'");
    console.log(`${CLIENTS} send keys made; ${RECIPIENTS} tagged contacts seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s`);
    console.log(
      `note: under wrangler dev the API, the queue consumers and every Durable Object (ledger, runner) run on one thread of one workerd process: the client's time per call includes waiting for it, the worker's own time (Server-Timing) does not`,
    );

    // A warm-up, not measured: one call per key, which makes the organisation's ledger (once in its life), warms the
    // isolate and the connections, and moves each key's last_used_at (a D1 row per key at most once a minute).
    const warm = await runSends(platform, setup, 'warm', CLIENTS);
    await waitFor(sink.tagged, warm.filter((c) => c.status === 202).length);

    // Idle phase, metered: every D1 statement of the worker while it takes and delivers the sends.
    const inspector = await connectInspector(platform.inspectorPort);
    await d1Meter(inspector, 'start');
    if (PROFILE) {
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.start');
    }
    const idleCalls = await phase(platform, setup, sink, 'idle', await sink.tagged());
    const profile = PROFILE ? (await inspector.call('Profiler.stop')).profile : null;
    await sleep(REQUEST_COUNT_FLUSH_MS + 1_000);
    const d1 = await d1Meter(inspector, 'stop');
    inspector.close();
    const idleRecords = await sink.records(0);
    const idle = phaseFigures(idleCalls, deliveries(idleRecords, 'idle'));
    printPhase('idle', idle, GOALS.p95IdleMs);
    const rowsPerSend = d1.rowsWritten / Math.max(1, idle.accepted);
    console.log(
      `  D1 (the worker's meter, the idle phase and ${REQUEST_COUNT_FLUSH_MS / 1000 + 1} s after it): ${d1.statements} statements, ${d1.rowsWritten} rows written, ${d1.rowsRead} rows read; shared D1 rows written per send ${rowsPerSend.toFixed(3)} (goal at most ${GOALS.d1RowsPerSend}: ${verdict(rowsPerSend <= GOALS.d1RowsPerSend)})`,
    );
    for (const [statement, rows] of Object.entries(d1.writers ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6))
      console.log(`    rows written by ${statement}...: ${rows}`);
    console.log(`    (besides: each key's last_used_at, at most ${CLIENTS} rows a minute for the ${CLIENTS} keys, written in the warm-up)`);
    for (const [statement, rows] of Object.entries(d1.readers ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4))
      console.log(`    rows read by ${statement}...: ${rows}`);
    for (const [statement, runs] of Object.entries(d1.runs ?? {})
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12))
      console.log(`    ${(runs / Math.max(1, idle.accepted)).toFixed(2)} runs per send of ${statement}...`);
    if (profile) printProfile(profile, Number(process.env.PROFILE_TOP) || 25);

    // Paced phase: the same sends at PACED a second, the platform idle otherwise.
    const pacedCalls = await phase(platform, setup, sink, 'paced', await sink.tagged(), PACED);
    const pacedRecords = await sink.records(0);
    const paced = phaseFigures(pacedCalls, deliveries(pacedRecords, 'paced'));
    printPhase(`paced at ${PACED} calls a second`, paced, GOALS.p95IdleMs, PACED);

    // Busy phase: the same sends while the broadcast is sending (from a fifth of it on).
    const broadcastFrom = pacedRecords.length;
    const broadcastId = await startBroadcast(setup, sink, tagId, broadcastFrom);
    const busyCalls = await phase(platform, setup, sink, 'busy', await sink.tagged());
    const b = await finishBroadcast(setup, broadcastId);
    // The sink may still be reading the last messages of a session when the broadcast reads finished.
    await waitFor(sink.count, broadcastFrom + RECIPIENTS + busyCalls.filter((c) => c.status === 202).length);
    await sleep(1_000);
    const records = await sink.records(0);
    const busy = phaseFigures(busyCalls, deliveries(records, 'busy'));
    printPhase('beside the broadcast', busy, GOALS.p95BusyMs);

    const broadcastTimes = records.slice(broadcastFrom).flatMap(([at, id]) => (id === null ? [at] : []));
    const rates = broadcastKept(broadcastTimes, { start: busy.firstStart, end: busy.lastDelivered });
    console.log(
      `broadcast: ${b.sent} sent, ${b.failed} failed, ${b.skipped} skipped of ${b.total}; the sink received ${broadcastTimes.length}${rates ? `, ${Math.round(rates.overallRate)} msg/s from its first message to its last` : ''}${MAX_RATE ? ` (integration rate ${MAX_RATE} msg/s)` : ''}`,
    );
    if (broadcastTimes.length !== RECIPIENTS || b.sent !== RECIPIENTS)
      console.log(`  DEFECT: expected ${RECIPIENTS} sent and received once each, got ${b.sent} sent and ${broadcastTimes.length} received`);
    if (rates) {
      console.log(
        `  beside the sends ${Math.round(rates.besideRate)} msg/s, alone ${Math.round(rates.aloneRate)} msg/s (the same broadcast's ${(rates.beforeMs / 1000).toFixed(1)} s before and ${(rates.afterMs / 1000).toFixed(1)} s after the sends): kept ${rates.kept.toFixed(2)} of its rate (goal at least ${GOALS.broadcastKept}: ${verdict(rates.kept >= GOALS.broadcastKept)})`,
      );
      if (rates.endedInside)
        console.log('  note: the broadcast ended before the sends were through: its rate beside them is understated (give more RECIPIENTS)');
      if (rates.afterMs === 0) console.log('  note: no part of the broadcast ran after the sends: its rate alone is from before them only');
    }
    await platform.stop();
    platform = null;
    const floor = await floorRate(setup);
    console.log(
      `runtime floor: the same ${N} calls from ${CLIENTS} clients against a worker making only a send's platform calls (one D1 batch of six reads, two ledger calls, a SQLite insert, a queue send; no delivery) on the same runtime: ${Math.round(floor)} req/s${floor < GOALS.acceptedPerSecond ? ` (below the goal of ${GOALS.acceptedPerSecond}: on this machine no send can reach it)` : ''}`,
    );
    const kept = rates ? rates.kept.toFixed(2) : 'n/a';
    // A p95 with sends lost has no value: 'n/a'.
    const p95 = (f) => (Number.isFinite(f.p95) ? Math.round(f.p95) : 'n/a');
    console.log(
      `transactional: ${Math.round(idle.perSecond)} req/s | p95 ${p95(idle)} ms idle, ${p95(busy)} ms beside a broadcast | broadcast kept ${kept} of its rate | runtime floor: ${Math.round(floor)} req/s | ratio ${(idle.perSecond / floor).toFixed(2)}`,
    );
  } finally {
    closeHttp();
    if (platform) await platform.stop();
    sink.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
