// bench:isolation — does one organisation's big broadcast slow another organisation down? Organisation A (the seeded
// `acme`) has A_N contacts (default 100,000); organisation B (`beta`, made here) has 1,000 contacts. B's user lists
// its contacts and its messages at a steady rate (REQUESTS each, one every RATE_MS) and sends a 1,000-recipient
// broadcast, first with A idle, then while A sends a broadcast to all of its contacts; both broadcasts go through our
// SMTP transport into a local smtp-server sink. Prints B's list p50/p95 and B's broadcast time in both phases. Last
// line: `isolation: <B p95 with A busy> ms | idle: <B p95 with A idle> ms | ratio <x>`; the line before it gives the same
// p95s inside the worker (its Server-Timing), without the runtime's way in and out.
// Run: npm run bench:isolation [A_N=...] [REQUESTS=...] [RATE_MS=...] [PROFILE_FILE=<path>: the worker isolate's CPU
// profile during B's busy phase, to open in DevTools]
import { apiRequest, closeHttp, signIn, workerTime } from './support/http.mjs';
import { d1Execute, startBenchPlatform, taggedContactsSql } from './support/platform.mjs';
import { startSink } from './smtp/harness.mjs';
import { percentile } from './support/stats.mjs';
import { connectInspector } from './support/inspector.mjs';

const A_N = Number(process.env.A_N) || 100_000;
const B_N = 1000;
const REQUESTS = Number(process.env.REQUESTS) || 150;
const RATE_MS = Number(process.env.RATE_MS) || 100;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Organisation `beta` with a user that has acme's user's password (copied hash) and B_N tagged contacts. */
function betaSql() {
  const tagged = taggedContactsSql(B_N, 'Beta').replaceAll("domain = 'acme'", "domain = 'beta'");
  return [
    "INSERT INTO organizations (name, domain) VALUES ('Beta Ltd', 'beta');",
    `INSERT INTO users (org_id, name, username, email, password_hash)
       SELECT (SELECT id FROM organizations WHERE domain = 'beta'), 'Beta admin', 'admin@beta.test', 'admin@beta.test', password_hash
       FROM users WHERE username = 'admin@acme.test';`,
    tagged,
  ].join('\n');
}

/** An organisation's API: sign-in, JSON calls, and the pieces of a broadcast to its tag through the sink. */
async function organisation(platform, domain, username, tagName, sinkPort) {
  const host = `${domain}.localhost:${platform.port}`;
  const login = await apiRequest(platform.port, host, {
    method: 'POST',
    path: '/api/v1/internal-auth/token-create',
    json: { username, password: 'Acme-2026!' },
  });
  if (login.status !== 200) throw new Error(`${domain}: sign-in failed ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.access_token;
  const api = async (method, path, json) => {
    const started = performance.now();
    const res = await apiRequest(platform.port, host, { method, path: `/api/v1${path}`, token, json });
    if (res.status >= 300) throw new Error(`${domain} ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return { body: res.body, ms: performance.now() - started, workerMs: workerTime(res.headers) };
  };
  const integration = (
    await api('POST', '/integration', {
      name: 'Sink',
      type: 'smtp',
      details: { server: '127.0.0.1', port: sinkPort, ssl: false, tls: false, domain: `${domain}.relay.test` },
      user: 'bench',
      password: 'unused',
    })
  ).body.data;
  await d1Execute(platform, `UPDATE integrations SET details = json_set(details, '$.user', NULL) WHERE id = ${integration.id}`);
  const sender = (await api('POST', '/sender', { integration_id: integration.id, type: 'email', value: `news@${domain}.relay.test`, name: 'News' })).body.data;
  const template = (
    await api('POST', '/template', { type: 'email', name: 'Isolation', subject: 'Hi {{ contact.name }}', body: '<p>Hello {{ contact.name }}</p>' })
  ).body.data;
  const [{ id: tagId }] = await d1Execute(platform, `SELECT id FROM tags WHERE name = '${tagName}'`);
  /** Starts a broadcast to the tag; answers a function that waits until it is finished and gives the seconds it took. */
  const broadcast = async (name) => {
    const started = performance.now();
    const { body } = await api('POST', '/broadcast', {
      name,
      type: 'email',
      sender_id: sender.id,
      template_id: template.id,
      do_not_unsubscribe: true,
      contacts: { filter: { tags: [tagId] } },
    });
    return async () => {
      for (;;) {
        const b = (await api('GET', `/broadcast/${body.data.id}`)).body.data;
        if (b.status === 'finished') return { seconds: (performance.now() - started) / 1000, sent: b.sent };
        if (performance.now() - started > 20 * 60_000) throw new Error(`${domain}: broadcast not finished after 20 minutes`);
        await sleep(250);
      }
    };
  };
  return { api, broadcast };
}

/** B's phase: its broadcast (timed to its finish, polled alongside), and its contact and message lists at a steady rate. */
async function measureB(b, label) {
  const finished = await b.broadcast(`B ${label}`);
  const lists = async () => {
    const calls = [];
    for (let i = 0; i < REQUESTS; i++) {
      const next = performance.now() + RATE_MS;
      calls.push(await b.api('GET', `/contact?page=${1 + (i % 20)}&page_size=10`));
      calls.push(await b.api('GET', `/message?page=${1 + (i % 20)}&page_size=10`));
      await sleep(Math.max(0, next - performance.now()));
    }
    return calls;
  };
  const [calls, send] = await Promise.all([lists(), finished()]);
  const times = calls.map((c) => c.ms);
  const workerTimes = calls.map((c) => c.workerMs);
  const result = {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    workerP50: percentile(workerTimes, 50),
    workerP95: percentile(workerTimes, 95),
    sendSeconds: send.seconds,
    sent: send.sent,
  };
  console.log(
    `B with A ${label}: list p50 ${result.p50.toFixed(1)} ms, p95 ${result.p95.toFixed(1)} ms (${times.length} requests; inside the worker p50 ${result.workerP50.toFixed(1)} ms, p95 ${result.workerP95.toFixed(1)} ms); its ${B_N}-recipient broadcast finished in ${result.sendSeconds.toFixed(1)} s`,
  );
  return result;
}

async function main() {
  const sink = await startSink();
  let platform = null;
  try {
    platform = await startBenchPlatform('isolation');
    await d1Execute(platform, taggedContactsSql(A_N, 'Alpha'));
    await d1Execute(platform, betaSql());
    console.log(`seeded ${A_N} contacts for A (acme) and ${B_N} for B (beta)`);
    await signIn(platform.port, platform.host); // the seeded user can sign in: the platform is up
    const a = await organisation(platform, 'acme', 'admin@acme.test', 'Alpha', sink.port);
    const b = await organisation(platform, 'beta', 'admin@beta.test', 'Beta', sink.port);

    const idle = await measureB(b, 'idle');
    const aFinished = await a.broadcast('A busy');
    // Let A's runner and consumers get going before B measures.
    await sleep(3000);
    let inspector = null;
    if (process.env.PROFILE_FILE) {
      inspector = await connectInspector(platform.inspectorPort);
      await inspector.call('Profiler.enable');
      await inspector.call('Profiler.setSamplingInterval', { interval: 200 });
      await inspector.call('Profiler.start');
    }
    const busy = await measureB(b, 'busy');
    if (inspector) (await import('node:fs')).writeFileSync(process.env.PROFILE_FILE, JSON.stringify((await inspector.call('Profiler.stop')).profile));
    const aDone = await aFinished();
    console.log(`A's ${A_N}-recipient broadcast finished in ${aDone.seconds.toFixed(1)} s (${Math.round(aDone.sent / aDone.seconds)} msg/s)`);
    console.log(
      `B's broadcast: ${idle.sendSeconds.toFixed(1)} s with A idle, ${busy.sendSeconds.toFixed(1)} s with A busy (ratio ${(busy.sendSeconds / idle.sendSeconds).toFixed(2)})`,
    );
    // The app's own share: from the worker's first line to its answer (Server-Timing). The rest of a call is the way in
    // and out through the runtime, which under wrangler dev waits behind A's work on the one runtime thread.
    console.log(
      `B's lists inside the worker: p95 ${busy.workerP95.toFixed(1)} ms with A busy, ${idle.workerP95.toFixed(1)} ms with A idle (ratio ${(busy.workerP95 / idle.workerP95).toFixed(2)})`,
    );
    console.log(`isolation: ${busy.p95.toFixed(1)} ms | idle: ${idle.p95.toFixed(1)} ms | ratio ${(busy.p95 / idle.p95).toFixed(2)}`);
  } finally {
    closeHttp();
    await platform?.stop();
    sink.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
