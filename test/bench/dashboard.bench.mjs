// bench:dashboard — the dashboard API at size: M messages (default 1,000,000) and N contacts (default 100,000) of
// the seeded organisation in the local D1, with two weeks of daily counters. Times GET /api/v1/dashboard beside
// GET /api/health (a plain SELECT 1 through the same worker), interleaved one by one so both see the same noise;
// then the API's p50 with request counting on and off (the worker restarted on the same data, alternating).
// Also prints what a contact costs in D1 bytes and a message and a tracking event in the organisation's ledger (its
// Durable Object's SQLite: src/modules/ledger), for the README's capacity figures. The messages and events are
// written straight into the ledger's file, as the contacts into D1's.
// Run: npm run bench:dashboard [M=...] [N=...] [REQUESTS=...] [ROUNDS=...]
import Database from 'better-sqlite3';
import { apiRequest, closeHttp, signIn } from './support/http.mjs';
import { d1Execute, ledgerExecute, ledgerFiles, localD1File, startBenchPlatform } from './support/platform.mjs';
import { percentile } from './support/stats.mjs';

const M = Number(process.env.M) || 1_000_000;
const N = Number(process.env.N) || 100_000;
const EVENTS = Number(process.env.EVENTS) || 100_000;
const REQUESTS = Number(process.env.REQUESTS) || 400;
const ROUNDS = Number(process.env.ROUNDS) || 2;
const ORG = "(SELECT id FROM organizations WHERE domain = 'acme')";
const numbers = (n) => `WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < ${n})`;

const fmt = (ms) => ms.toFixed(2);

/** The database's size, read from its SQLite file (WAL included) by better-sqlite3: D1's SQL refuses PRAGMAs. */
function databaseBytes(platform) {
  const db = new Database(localD1File(platform.stateDir), { readonly: true, fileMustExist: true });
  try {
    return db.pragma('page_count', { simple: true }) * db.pragma('page_size', { simple: true });
  } finally {
    db.close();
  }
}

/** The bytes of the organisations' ledgers' SQLite files. */
function ledgerBytes(platform) {
  let bytes = 0;
  for (const file of ledgerFiles(platform.stateDir)) {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      bytes += db.pragma('page_count', { simple: true }) * db.pragma('page_size', { simple: true });
    } finally {
      db.close();
    }
  }
  return bytes;
}

/** Seeds in steps and answers the bytes each kind of row added (table and indexes) where it is kept. */
async function seed(platform) {
  const sizes = {};
  const stores = {
    d1: { run: (sql) => d1Execute(platform, sql), bytes: () => databaseBytes(platform) },
    ledger: { run: async (sql) => ledgerExecute(platform, sql), bytes: () => ledgerBytes(platform) },
  };
  const step = async (name, count, sql, store = stores.d1) => {
    const started = performance.now();
    const before = store.bytes();
    await store.run(sql);
    sizes[name] = (store.bytes() - before) / count;
    console.log(`seeded ${count.toLocaleString('en')} ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s: ${sizes[name].toFixed(0)} bytes each`);
  };
  await step(
    'contacts',
    N,
    [
      `${numbers(N)} INSERT INTO contacts (org_id, name, created_at, updated_at) SELECT ${ORG}, 'Person ' || x, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (x % 2592000) || ' seconds'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM k;`,
      `INSERT INTO contact_addresses (org_id, contact_id, type, value) SELECT org_id, id, 'email', 'person' || id || '@example.test' FROM contacts WHERE org_id = ${ORG} AND name LIKE 'Person %';`,
    ].join('\n'),
  );
  // The organisation's ledger, made by its first use (the message list), where its messages and events are kept.
  const token = await signIn(platform.port, platform.host);
  await apiRequest(platform.port, platform.host, { path: '/api/v1/message?page_size=1', token });
  const [{ org, first }] = await d1Execute(platform, `SELECT ${ORG} AS org, (SELECT min(id) FROM contacts WHERE org_id = ${ORG}) AS first`);
  // Broadcast recipients as the engine writes them: ten broadcasts of N recipients each (body '' is rendered from
  // the broadcast's snapshot), sent over the last sixty days.
  await step(
    'messages',
    M,
    `${numbers(M)} INSERT INTO messages (org_id, type, status, broadcast_id, contact_id, contact_name, from_address, from_name, to_address, subject, body,
      sent_at, external_id, attempts, created_at, updated_at)
    SELECT ${org}, 'email', 'sent', 1000 + x / ${N}, ${first} + x % ${N}, 'Person ' || (x % ${N}), 'news@acme.example', 'Acme News',
      'person' || (x % ${N}) || '@example.test', 'Our news for week ' || (x / ${N}), '',
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (x % 5184000) || ' seconds'), '<' || hex(randomblob(12)) || '@acme.example>', 1,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (x % 5184000) || ' seconds'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (x % 5184000) || ' seconds')
    FROM k;`,
    stores.ledger,
  );
  await step(
    'tracking events',
    EVENTS,
    `${numbers(EVENTS)} INSERT INTO tracking_events (id, org_id, message_id, broadcast_id, kind, link_index, url, class, reason, method, user_agent, ip_hash, asn, as_organization, at)
    SELECT lower(hex(randomblob(16))), ${org}, x, 1000, CASE WHEN x % 3 = 0 THEN 'click' ELSE 'open' END, CASE WHEN x % 3 = 0 THEN 0 ELSE -1 END,
      CASE WHEN x % 3 = 0 THEN 'https://acme.example/offer' END, 'human', 'person', 'GET',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', lower(hex(randomblob(16))), 7922, 'COMCAST-7922',
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (x % 5184000) || ' seconds')
    FROM k;`,
    stores.ledger,
  );
  await d1Execute(
    platform,
    `${numbers(14)} INSERT INTO org_daily_stats (org_id, day, requests, request_bytes, emails_sent, opens, human_opens, clicks, human_clicks, unsubscribes, contacts_created, file_bytes, data_bytes)
    SELECT ${ORG}, date('now', '-' || (x - 1) || ' days'), 5000 + x, 9000000, 60000 + x * 100, 20000, 15000, 3000, 2500, 40, 100, 5000000, 900000000 FROM k
    WHERE 1 ON CONFLICT (org_id, day) DO NOTHING;`,
  );
  return sizes;
}

/** `count` requests of each path, interleaved one by one; answers the times per path. */
async function timeInterleaved(platform, token, paths, count) {
  const times = Object.fromEntries(paths.map((p) => [p, []]));
  for (const p of paths) {
    const res = await apiRequest(platform.port, platform.host, { path: p, token });
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  }
  for (let i = 0; i < count; i++) {
    for (const p of paths) {
      const started = performance.now();
      const res = await apiRequest(platform.port, platform.host, { path: p, token });
      times[p].push(performance.now() - started);
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status}`);
    }
  }
  return times;
}

async function main() {
  let platform = await startBenchPlatform('dashboard');
  try {
    const sizes = await seed(platform);
    console.log(
      `D1: ${(databaseBytes(platform) / 1e6).toFixed(0)} MB with ${N.toLocaleString('en')} contacts; the ledger: ${(ledgerBytes(platform) / 1e6).toFixed(0)} MB with ${M.toLocaleString('en')} messages and ${EVENTS.toLocaleString('en')} events`,
    );
    const perGb = (bytes) => Math.floor(1e9 / bytes).toLocaleString('en');
    console.log(
      `one GB holds about ${perGb(sizes.contacts)} contacts (with one address) in D1, ${perGb(sizes.messages)} messages or ${perGb(sizes['tracking events'])} tracking events in a ledger`,
    );

    let token = await signIn(platform.port, platform.host);
    const dashboard = '/api/v1/dashboard';
    const health = '/api/health';
    const times = await timeInterleaved(platform, token, [dashboard, health], REQUESTS);
    const check = await apiRequest(platform.port, platform.host, { path: dashboard, token });
    console.log(
      `dashboard answer: ${check.body.data.days.length} days, ${check.body.data.contacts_total} contacts, this week ${check.body.data.week.emails_sent} emails`,
    );
    const p95 = percentile(times[dashboard], 95);
    const base95 = percentile(times[health], 95);
    console.log(
      `GET ${dashboard} (${REQUESTS}): p50 ${fmt(percentile(times[dashboard], 50))} ms, p95 ${fmt(p95)} ms | GET ${health} (SELECT 1): p50 ${fmt(percentile(times[health], 50))} ms, p95 ${fmt(base95)} ms`,
    );

    // Request counting on and off: the same worker restarted on the same data, in the order off on, on off, ... so
    // a drift of the machine over the run weighs on both alike.
    const cheap = '/api/v1/tag?page_size=1';
    const p50s = { on: [], off: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const mode of round % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
        platform = await platform.restart(mode === 'off' ? { REQUEST_COUNTING: 'off' } : {});
        token = await signIn(platform.port, platform.host);
        const t = await timeInterleaved(platform, token, [cheap], REQUESTS);
        p50s[mode].push(percentile(t[cheap], 50));
        console.log(`round ${round + 1}, request counting ${mode}: GET ${cheap} p50 ${fmt(percentile(t[cheap], 50))} ms`);
      }
    }
    const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
    const on = mean(p50s.on);
    const off = mean(p50s.off);
    console.log(`API p50 with request counting on: ${fmt(on)} ms | off: ${fmt(off)} ms | difference ${fmt(on - off)} ms (goal: under 1 ms)`);
    console.log(`target dashboard p95 under 30 ms: ${p95 < 30 ? 'met' : 'NOT met'}`);
    console.log(`dashboard: ${fmt(p95)} ms | select 1: ${fmt(base95)} ms | ratio ${(p95 / base95).toFixed(2)}`);
  } finally {
    closeHttp();
    await platform.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
