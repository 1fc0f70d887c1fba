// bench:membership-migration — migration 0030 (memberships and forms, issue 39) at N contacts (default 1,000,000).
// The database is built at the schema before 0030 (`wrangler d1 migrations apply --local` of 0000..0029, as the
// platform's benches do) and filled in the same engine: miniflare's local D1, the SQLite inside workerd that
// `wrangler dev` and `wrangler d1 execute --local` use, reached the way wrangler reaches it (a Miniflare instance and
// `db.batch()` of the file's statements, one transaction). Organisation `acme` has N contacts, 99% with an email
// address, 0.5% of the addresses blacklisted, three subscriptions, 5% of the contacts unsubscribed from one of them and
// 1% from all three; a second organisation has N/100 contacts shaped the same. Events the fill's triggers queued are
// cleared (a live database has delivered them).
// Before 0030 each subscription's email audience (skipping the unsubscribed and not) and the subscription-less one
// are stored with the pre-0030 rule; 0030 is then timed alone, and each audience is computed again with the
// membership rule (support/membership-audience.mjs) and compared row by row: any gained, lost or changed recipient is
// a failure, printed loudly (exit code 1). Baseline, same run and engine: copying the contacts table
// (CREATE TABLE ... AS SELECT), a full pass over the table the migration alters. Last line:
// membership-migration: <s> s | contacts copy: <s> s | ratio <x>
// Run: npm run bench:membership-migration [N=1000000]
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { BIN, localEnv, ROOT, run } from '../../scripts/lib/run.mjs';
import { compareAfterQuery, differencesQuery, lostQuery, reachSqlText, storeBeforeQuery } from './support/membership-audience.mjs';

const N = Number(process.env.N) || 1_000_000;
const CHUNK = 100_000;
const DATABASE_ID = '00000000-0000-4000-8000-0000000000b0';
const MIGRATION = readdirSync(path.join(ROOT, 'migrations')).find((f) => f.startsWith('0030_'));

const seconds = (ms) => (ms / 1000).toFixed(2);

/** A temp dir with a wrangler.toml whose migrations are 0000..0029 only; the local D1 state is written under it. */
function preMembershipProject() {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-membership-'));
  const migrations = path.join(root, 'migrations');
  mkdirSync(migrations);
  for (const name of readdirSync(path.join(ROOT, 'migrations')).filter((f) => f.endsWith('.sql') && f < MIGRATION)) {
    copyFileSync(path.join(ROOT, 'migrations', name), path.join(migrations, name));
  }
  writeFileSync(
    path.join(root, 'wrangler.toml'),
    `name = "bench-membership"\ncompatibility_date = "2026-11-01"\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "relay"\ndatabase_id = "${DATABASE_ID}"\nmigrations_dir = "migrations"\n`,
  );
  return { root, state: path.join(root, 'state'), config: path.join(root, 'wrangler.toml') };
}

/** Runs statements as one D1 batch (one transaction, as wrangler runs a migration file); answers ms taken and results. */
async function batch(db, statements) {
  const started = performance.now();
  const results = await db.batch(statements.map((s) => (typeof s === 'string' ? db.prepare(s) : db.prepare(s.sql).bind(...s.params))));
  return { ms: performance.now() - started, results };
}

/** An organisation with `n` contacts, its addresses, blacklist entries, three subscriptions and unsubscribes; answers its rules. */
async function fillOrganisation(db, domain, n) {
  const { results } = await batch(db, [`INSERT INTO organizations (name, domain) VALUES ('${domain}', '${domain}') RETURNING id`]);
  const orgId = results[0].results[0].id;
  const subs = await batch(
    db,
    ['Newsletter', 'Product updates', 'Offers'].map(
      (name, i) => `INSERT INTO subscriptions (org_id, name, priority) VALUES (${orgId}, '${name}', ${i}) RETURNING id`,
    ),
  );
  const subscriptionIds = subs.results.map((r) => r.results[0].id);
  for (let from = 1; from <= n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK - 1);
    await batch(db, [
      `WITH RECURSIVE k(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM k WHERE x < ${to})
       INSERT INTO contacts (org_id, name, created_at, updated_at)
       SELECT ${orgId}, 'Person ' || x, strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + x, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', 1767225600 + x, 'unixepoch') FROM k`,
    ]);
  }
  const { results: range } = await batch(db, [`SELECT min(id) AS lo, max(id) AS hi FROM contacts WHERE org_id = ${orgId}`]);
  const { lo, hi } = range[0].results[0];
  for (let from = lo; from <= hi; from += CHUNK) {
    const inRange = (c) => `${c}org_id = ${orgId} AND ${c}id BETWEEN ${from} AND ${Math.min(hi, from + CHUNK - 1)}`;
    await batch(db, [
      // 1% of the contacts have no email address.
      `INSERT INTO contact_addresses (org_id, contact_id, type, value, position)
       SELECT org_id, id, 'email', 'person' || id || '@${domain}.example', 0 FROM contacts WHERE ${inRange('')} AND id % 100 <> 37`,
      // 5% unsubscribed from one of the three subscriptions, 1% from all three.
      `INSERT INTO unsubscribes (org_id, contact_id, subscription_id, source, created_at, updated_at)
       SELECT c.org_id, c.id, s.id, 'link', c.created_at, c.created_at FROM contacts c JOIN subscriptions s ON s.org_id = c.org_id
       WHERE ${inRange('c.')} AND (((c.id * 7919) % 100 < 5 AND s.priority = c.id % 3) OR (c.id * 7919) % 100 = 5)`,
    ]);
  }
  // 0.5% of the addresses suppressed (bounced, complained or listed by hand).
  await batch(db, [
    `INSERT INTO blacklist (org_id, type, value, reason) SELECT org_id, 'email', value,
       CASE contact_id % 3 WHEN 0 THEN 'hard_bounce' WHEN 1 THEN 'complaint' ELSE NULL END
     FROM contact_addresses WHERE org_id = ${orgId} AND (contact_id * 31) % 200 = 0`,
  ]);
  return [
    { orgId, subscriptionId: null, skipUnsubscribed: true, label: `${domain}, no subscription` },
    ...subscriptionIds.flatMap((subscriptionId, i) => [
      { orgId, subscriptionId, skipUnsubscribed: true, label: `${domain}, subscription ${i + 1}, skipping the unsubscribed` },
      { orgId, subscriptionId, skipUnsubscribed: false, label: `${domain}, subscription ${i + 1}, not skipping` },
    ]),
  ];
}

async function one(db, query) {
  const { results } = await batch(db, [query]);
  return results[0].results;
}

async function main() {
  const project = preMembershipProject();
  let mf = null;
  try {
    console.log(`applying the migrations before ${MIGRATION} to a local D1 in ${project.root}`);
    const quiet = { quiet: true, env: localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' }), stdio: ['ignore', 'ignore', 'inherit'] };
    await run(path.join(BIN, 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', project.state, '--config', project.config], quiet);
    mf = new Miniflare(
      convertV4MiniflareOptions({ modules: true, script: '', resourcePersistencePath: path.join(project.state, 'v3'), d1Databases: { DATABASE: DATABASE_ID } }),
    );
    const db = await mf.getD1Database('DATABASE');
    const version = (name) => JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
    console.log(`engine: local D1 of miniflare ${version('miniflare')}, workerd ${version('workerd')} (its SQLite: D1 refuses sqlite_version())`);

    let started = performance.now();
    const rules = [...(await fillOrganisation(db, 'acme', N)), ...(await fillOrganisation(db, 'other', Math.max(1000, Math.round(N / 100))))];
    await batch(db, ['DELETE FROM event_outbox']);
    const [counts] = await one(
      db,
      `SELECT (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM contact_addresses) AS addresses,
         (SELECT count(*) FROM unsubscribes) AS unsubscribes, (SELECT count(DISTINCT contact_id) FROM unsubscribes) AS unsubscribed_contacts,
         (SELECT count(*) FROM blacklist) AS blacklisted`,
    );
    console.log(`filled in ${seconds(performance.now() - started)} s: ${JSON.stringify(counts)}`);

    started = performance.now();
    await batch(db, ['CREATE TABLE bench_before (audience INTEGER NOT NULL, id INTEGER NOT NULL, reason TEXT, PRIMARY KEY (audience, id)) WITHOUT ROWID']);
    for (const [key, rule] of rules.entries()) await batch(db, [storeBeforeQuery(key, rule)]);
    console.log(`stored ${rules.length} audiences with the pre-0030 rule in ${seconds(performance.now() - started)} s`);

    const copy = await batch(db, ['CREATE TABLE bench_contacts_copy AS SELECT * FROM contacts']);
    await batch(db, ['DROP TABLE bench_contacts_copy']);
    console.log(`baseline: CREATE TABLE ... AS SELECT * FROM contacts (${counts.contacts.toLocaleString('en')} rows) took ${seconds(copy.ms)} s`);

    const statements = readFileSync(path.join(ROOT, 'migrations', MIGRATION), 'utf8')
      .split('--> statement-breakpoint')
      .filter((s) => s.trim());
    const migration = await batch(db, statements);
    const [members] = await one(db, "SELECT count(*) AS rows, sum(status = 'unsubscribed') AS unsubscribed FROM subscription_members");
    console.log(`migration ${MIGRATION} (${statements.length} statements) took ${seconds(migration.ms)} s; subscription_members ${JSON.stringify(members)}`);

    console.log(`\nthe membership rule added after 0030 (subscription 1 of acme, skipping the unsubscribed): ${reachSqlText(rules[1])}`);
    let differences = members.rows === counts.unsubscribes ? 0 : 1;
    if (differences) console.log(`!!! subscription_members has ${members.rows} rows for ${counts.unsubscribes} unsubscribes`);
    for (const [key, rule] of rules.entries()) {
      const [before] = await one(db, {
        sql: 'SELECT count(*) AS rows, coalesce(sum(reason IS NULL), 0) AS receiving FROM bench_before WHERE audience = ?',
        params: [key],
      });
      const [after] = await one(db, compareAfterQuery(key, rule));
      const lost = before.rows - (after.after_rows - after.gained);
      const line = `${rule.label.padEnd(48)} selected ${before.rows} -> ${after.after_rows}, receiving ${before.receiving} -> ${after.after_receiving}, gained ${after.gained}, lost ${lost}, reason changed ${after.changed}`;
      if (after.gained || after.changed || lost) {
        differences++;
        console.log(`!!! DIFFERENCE: ${line}`);
        for (const row of [...(await one(db, differencesQuery(key, rule))), ...(lost ? await one(db, lostQuery(key, rule)) : [])]) {
          console.log(`!!!   contact ${row.id}: before ${row.before ?? 'receives'}, after ${row.after ?? 'receives'}`);
        }
      } else {
        console.log(`same: ${line}`);
      }
    }
    if (differences) {
      process.exitCode = 1;
      console.log(`\n!!!!!!!! FAILURE: ${differences} audiences differ after ${MIGRATION}: contacts would gain or lose mail !!!!!!!!`);
    }
    console.log(`goal: every existing contact keeps receiving exactly what it received (${differences ? 'NOT met' : 'met'})`);
    console.log(`membership-migration: ${seconds(migration.ms)} s | contacts copy: ${seconds(copy.ms)} s | ratio ${(migration.ms / copy.ms).toFixed(2)}`);
  } finally {
    await mf?.dispose();
    if (!process.env.BENCH_KEEP) rmSync(project.root, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
