// bench:contacts-scale — do the lists cost what a page costs, or what the table holds? The contact list (a
// page of the first 50, and page 1,000), a search, a tag filter (a tag on 5% of the contacts) and the message
// list (all, by status) are timed through the API at N contacts and messages, for N = 100,000 and then
// 1,000,000, in one run; each size gets its own platform. The rows are written straight into the local D1 file
// while wrangler is stopped (the migration's triggers keep the counts, as the API's writes do), which is what
// makes a million rows take minutes rather than the import's hour. Last line:
// contacts-scale: <worst p95 at the larger size> ms | at <smaller>: <worst p95> ms | ratio <x>
// Run: npm run bench:contacts-scale [SIZES=100000,1000000] [REQUESTS=200]
import Database from 'better-sqlite3';
import { closeHttp, apiRequest, signIn } from './support/http.mjs';
import { ledgerFiles, localD1File, startBenchPlatform } from './support/platform.mjs';
import { percentile } from './support/stats.mjs';

const SIZES = (process.env.SIZES ?? '100000,1000000').split(',').map(Number);
const REQUESTS = Number(process.env.REQUESTS) || 200;
const TAGS = 20;
const PAGE_SIZE = 10;

function random(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/**
 * Writes n contacts (one address each, every 20th tagged with one of TAGS tags) for `acme` into D1's file, and n
 * messages into its ledger's (src/modules/ledger: the organisation's messages are kept there).
 */
function fillDatabase(file, ledgerFile, n) {
  const db = new Database(file);
  const ledger = new Database(ledgerFile);
  db.pragma('foreign_keys = ON');
  const { id: orgId } = db.prepare("SELECT id FROM organizations WHERE domain = 'acme'").get();
  const tagIds = [];
  const addTag = db.prepare('INSERT INTO tags (org_id, name, priority) VALUES (?, ?, ?) RETURNING id');
  for (let t = 1; t <= TAGS; t++) tagIds.push(addTag.get(orgId, `scale-${t}`, 100 + t).id);
  const contact = db.prepare('INSERT INTO contacts (org_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id');
  const address = db.prepare("INSERT INTO contact_addresses (org_id, contact_id, type, value, position) VALUES (?, ?, 'email', ?, 0)");
  const tag = db.prepare('INSERT INTO contact_tags (org_id, contact_id, tag_id) VALUES (?, ?, ?)');
  const message = ledger.prepare(
    "INSERT INTO messages (org_id, type, status, contact_id, contact_name, from_address, to_address, subject, body, sent_at, created_at, updated_at) VALUES (?, 'email', ?, ?, ?, 'hello@acme.test', ?, 'Hello', 'Hi', ?, ?, ?)",
  );
  const started = Date.now();
  const CHUNK = 20_000;
  for (let from = 1; from <= n; from += CHUNK) {
    const made = [];
    db.transaction(() => {
      for (let i = from; i < Math.min(n + 1, from + CHUNK); i++) {
        const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
        const { id } = contact.get(orgId, `Person ${i}`, at, at);
        address.run(orgId, id, `person${i}@example.com`);
        if (i % 20 === 0) tag.run(orgId, id, tagIds[(i / 20) % TAGS]);
        made.push([i, id, at]);
      }
    })();
    ledger.transaction(() => {
      for (const [i, id, at] of made) message.run(orgId, i % 10 === 0 ? 'failed' : 'sent', id, `Person ${i}`, `person${i}@example.com`, at, at, at);
    })();
  }
  db.exec('ANALYZE');
  db.close();
  ledger.exec('ANALYZE');
  ledger.close();
  console.log(`wrote ${n} contacts and ${n} messages in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return tagIds;
}

/** The requests of each kind at size n: query strings of GET /contact or /message. */
function workload(n, tagIds) {
  const next = random(42);
  const pick = (k) => Math.floor(next() * k);
  const many = (make) => Array.from({ length: REQUESTS }, make);
  return {
    'contact list': many(() => `/contact?page=${1 + pick(50)}&page_size=${PAGE_SIZE}`),
    'contact page 1000': many(() => `/contact?page=1000&page_size=${PAGE_SIZE}`),
    'contact search': many(() => `/contact?search=${encodeURIComponent(`person${1 + pick(n)}@`)}&page_size=${PAGE_SIZE}`),
    'contact tag': many(() => `/contact?tags=${tagIds[pick(tagIds.length)]}&page=${1 + pick(10)}&page_size=${PAGE_SIZE}`),
    'message list': many(() => `/message?page=${1 + pick(50)}&page_size=${PAGE_SIZE}`),
    'message status': many(() => `/message?status=failed&page=${1 + pick(10)}&page_size=${PAGE_SIZE}`),
  };
}

async function measure(n) {
  let platform = await startBenchPlatform(`scale-${n}`);
  try {
    // The organisation's ledger is made by its first use (the message list), before the files are filled.
    const first = await apiRequest(platform.port, platform.host, { path: '/api/v1/message?page_size=1', token: await signIn(platform.port, platform.host) });
    if (first.status !== 200) throw new Error(`GET /message: ${first.status}`);
    await platform.stop({ keepState: true });
    const [ledgerFile] = ledgerFiles(platform.stateDir);
    const tagIds = fillDatabase(localD1File(platform.stateDir), ledgerFile, n);
    platform = await platform.restart();
    const { port, host } = platform;
    const token = await signIn(port, host);
    const results = {};
    for (const [kind, paths] of Object.entries(workload(n, tagIds))) {
      const warm = await apiRequest(port, host, { path: `/api/v1${paths[0]}`, token });
      if (warm.status !== 200) throw new Error(`GET ${paths[0]}: ${warm.status} ${JSON.stringify(warm.body).slice(0, 300)}`);
      const times = [];
      let meta = null;
      for (const p of paths) {
        const t0 = performance.now();
        const res = await apiRequest(port, host, { path: `/api/v1${p}`, token });
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`GET ${p}: ${res.status}`);
        meta = res.body.meta;
      }
      results[kind] = { p50: percentile(times, 50), p95: percentile(times, 95), meta };
      console.log(`N=${n} ${kind.padEnd(18)} p50 ${results[kind].p50.toFixed(2)} ms, p95 ${results[kind].p95.toFixed(2)} ms (meta ${JSON.stringify(meta)})`);
    }
    return results;
  } finally {
    await platform.stop();
  }
}

async function main() {
  const bySize = [];
  try {
    for (const n of SIZES) bySize.push({ n, results: await measure(n) });
  } finally {
    closeHttp();
  }
  const [small, large] = [bySize[0], bySize[bySize.length - 1]];
  console.log(`\np95 by size (${REQUESTS} requests each):`);
  for (const kind of Object.keys(small.results)) {
    const a = small.results[kind].p95;
    const b = large.results[kind].p95;
    console.log(`  ${kind.padEnd(18)} ${small.n}: ${a.toFixed(2)} ms   ${large.n}: ${b.toFixed(2)} ms   growth ${(b / a).toFixed(2)}x`);
  }
  const worst = (r) => Math.max(...Object.values(r.results).map((x) => x.p95));
  const worstLarge = worst(large);
  const worstSmall = worst(small);
  console.log(
    `goal: worst p95 at ${large.n} under 50 ms (${worstLarge < 50 ? 'met' : 'NOT met'}) and within 1.5x of ${small.n} (${worstLarge / worstSmall <= 1.5 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `contacts-scale: ${worstLarge.toFixed(2)} ms | at ${small.n / 1000}k: ${worstSmall.toFixed(2)} ms | ratio ${(worstLarge / worstSmall).toFixed(2)}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
