// bench:contacts — loads N contacts (default 100,000) through the import pipeline, then times the contact
// list API (another module: GET /api/v1/contact) for a few hundred requests each of: a list page, a search,
// and a filter by tag; p50 and p95 as the client sees them (node:http, keep-alive, one at a time). Baseline:
// the same queries (count + page + the three relation queries the API runs per page) on the very same
// database file, directly with better-sqlite3. Run: npm run bench:contacts [N=...] [REQUESTS=...]
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchFieldsSql, benchMapping, writeContactsCsv } from './support/contacts-csv.mjs';
import { apiRequest, closeHttp, runImport, signIn, uploadFile } from './support/http.mjs';
import { d1Execute, localD1File, startBenchPlatform } from './support/platform.mjs';
import { percentile } from './support/stats.mjs';

const N = Number(process.env.N) || 100_000;
const REQUESTS = Number(process.env.REQUESTS) || 300;
const PAGE_SIZE = 10;

/** A deterministic pseudo-random sequence, so the API and the baseline get the same requests. */
function random(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** The requests of each kind: { query string for the API, parameters for the baseline }. */
function workload(tagIds) {
  const next = random(42);
  const pages = Math.max(1, Math.min(50, Math.floor(N / PAGE_SIZE)));
  const pick = (n) => Math.floor(next() * n);
  return {
    list: Array.from({ length: REQUESTS }, () => {
      const page = 1 + pick(pages);
      return { query: `page=${page}&page_size=${PAGE_SIZE}`, page, search: null, tag: null };
    }),
    search: Array.from({ length: REQUESTS }, () => {
      const term = `person${pick(N)}@`;
      return { query: `search=${encodeURIComponent(term)}&page_size=${PAGE_SIZE}`, page: 1, search: term, tag: null };
    }),
    tag: Array.from({ length: REQUESTS }, () => {
      const tag = tagIds[pick(tagIds.length)];
      const page = 1 + pick(10);
      return { query: `tags=${tag}&page=${page}&page_size=${PAGE_SIZE}`, page, search: null, tag };
    }),
  };
}

const fmt = (ms) => ms.toFixed(2);

/**
 * The API's queries for one list request, as SQL on the D1 file: count, page, and the three relation queries
 * (src/modules/crud/crud-routes.ts, src/modules/contact/filters.ts and present.ts, with their `+org_id`).
 */
function baselineQueries(db, orgId) {
  const like = (text) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = (r) => {
    if (r.search) {
      return {
        sql: `org_id = ? AND (name LIKE ? ESCAPE '\\' OR note LIKE ? ESCAPE '\\' OR id IN (SELECT contact_id FROM contact_addresses WHERE org_id = ? AND value LIKE ? ESCAPE '\\'))`,
        params: [orgId, like(r.search), like(r.search), orgId, like(r.search)],
      };
    }
    if (r.tag) {
      return {
        sql: `org_id = ? AND id IN (SELECT contact_id FROM contact_tags WHERE org_id = ? AND tag_id IN (SELECT value FROM json_each(?)))`,
        params: [orgId, orgId, JSON.stringify([r.tag])],
      };
    }
    return { sql: 'org_id = ?', params: [orgId] };
  };
  const addresses = db.prepare(
    'SELECT contact_id, id, type, value FROM contact_addresses WHERE +org_id = ? AND contact_id IN (SELECT value FROM json_each(?)) ORDER BY contact_id, position, id',
  );
  const tags = db.prepare(
    'SELECT ct.contact_id, t.id, t.name FROM contact_tags ct JOIN tags t ON t.id = ct.tag_id AND +t.org_id = ? WHERE +ct.org_id = ? AND ct.contact_id IN (SELECT value FROM json_each(?)) ORDER BY t.priority, t.id',
  );
  const attributes = db.prepare(
    `SELECT a.contact_id, a.field_id, f.type, a.value_text, a.value_number, a.option_id FROM contact_attributes a
     JOIN fields f ON f.id = a.field_id AND +f.org_id = ? LEFT JOIN field_options o ON o.id = a.option_id
     WHERE +a.org_id = ? AND a.contact_id IN (SELECT value FROM json_each(?)) ORDER BY f.priority, f.id, o.position, a.id`,
  );
  const cache = new Map();
  const prepared = (sql) => cache.get(sql) ?? cache.set(sql, db.prepare(sql)).get(sql);
  return (r) => {
    const w = where(r);
    const total = prepared(`SELECT COUNT(*) AS n FROM contacts WHERE ${w.sql}`).get(...w.params).n;
    const rows = prepared(`SELECT * FROM contacts WHERE ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`).all(
      ...w.params,
      PAGE_SIZE,
      (r.page - 1) * PAGE_SIZE,
    );
    const ids = JSON.stringify(rows.map((row) => row.id));
    addresses.all(orgId, ids);
    tags.all(orgId, orgId, ids);
    attributes.all(orgId, orgId, ids);
    return { total, rows: rows.length };
  };
}

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-contacts-data-'));
  let platform = null;
  try {
    const file = path.join(work, 'contacts.csv');
    const size = await writeContactsCsv(file, N);
    platform = await startBenchPlatform('contacts');
    const { port, host } = platform;
    await d1Execute(platform, benchFieldsSql('acme'));
    const fieldRows = await d1Execute(platform, "SELECT f.id, f.alias FROM fields f JOIN organizations o ON o.id = f.org_id WHERE o.domain = 'acme'");
    const token = await signIn(port, host);
    const upload = await uploadFile(port, host, token, file);
    const { item, seconds } = await runImport(port, host, token, {
      file_key: upload.file_key,
      file_name: 'contacts.csv',
      skip_first_line: true,
      mapping: benchMapping(Object.fromEntries(fieldRows.map((r) => [r.alias, r.id]))),
    });
    if (item.status !== 'success' || item.created_count !== N) throw new Error(`loading failed: ${JSON.stringify(item)}`);
    console.log(`loaded ${N} contacts (${(size / 1e6).toFixed(1)} MB CSV) through the import pipeline in ${seconds.toFixed(1)} s`);

    const [{ id: orgId }] = await d1Execute(platform, "SELECT id FROM organizations WHERE domain = 'acme'");
    const tagIds = (await d1Execute(platform, `SELECT id FROM tags WHERE org_id = ${orgId} AND name LIKE 'tag-%'`)).map((r) => r.id);
    const requests = workload(tagIds);

    const api = {};
    const totals = {};
    for (const [kind, list] of Object.entries(requests)) {
      const first = await apiRequest(port, host, { path: `/api/v1/contact?${list[0].query}`, token });
      if (first.status !== 200) throw new Error(`GET /api/v1/contact?${list[0].query}: ${first.status} ${JSON.stringify(first.body).slice(0, 300)}`);
      const times = [];
      for (const r of list) {
        const started = performance.now();
        const res = await apiRequest(port, host, { path: `/api/v1/contact?${r.query}`, token });
        times.push(performance.now() - started);
        if (res.status !== 200) throw new Error(`GET /api/v1/contact?${r.query}: ${res.status}`);
        totals[kind] = res.body.meta.total;
      }
      api[kind] = times;
    }
    // Stop wrangler (SQLite checkpoints its WAL on close), keep its state, and open a copy of the D1 file.
    await platform.stop({ keepState: true });
    const dbFile = path.join(work, 'd1.sqlite');
    copyFileSync(localD1File(platform.stateDir), dbFile);
    platform.removeState();
    platform = null;
    const db = new Database(dbFile, { readonly: true });
    const query = baselineQueries(db, orgId);
    const base = {};
    for (const [kind, list] of Object.entries(requests)) {
      const check = query(list[list.length - 1]);
      if (check.total !== totals[kind]) throw new Error(`baseline ${kind} total ${check.total} differs from the API's ${totals[kind]}`);
      const times = [];
      for (const r of list) {
        const started = performance.now();
        query(r);
        times.push(performance.now() - started);
      }
      base[kind] = times;
    }
    db.close();

    let worst = 0;
    let worstBase = 0;
    for (const kind of Object.keys(requests)) {
      const p95 = percentile(api[kind], 95);
      const baseP95 = percentile(base[kind], 95);
      worst = Math.max(worst, p95);
      worstBase = Math.max(worstBase, baseP95);
      console.log(
        `${kind.padEnd(6)} (${REQUESTS} requests, e.g. ?${requests[kind][0].query}, last total ${totals[kind]}): API p50 ${fmt(percentile(api[kind], 50))} ms, p95 ${fmt(p95)} ms | better-sqlite3 p50 ${fmt(percentile(base[kind], 50))} ms, p95 ${fmt(baseP95)} ms`,
      );
    }
    console.log(
      `target p95 under 50 ms: ${worst < 50 ? 'met' : 'NOT met'} (worst p95 of list, search and tag filter: ${fmt(worst)} ms); ratio = API / better-sqlite3`,
    );
    console.log(`contacts: ${fmt(worst)} ms | better-sqlite3: ${fmt(worstBase)} ms | ratio ${(worst / worstBase).toFixed(2)}`);
  } finally {
    closeHttp();
    if (platform) await platform.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
