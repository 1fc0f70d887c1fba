// The local platform for a benchmark: `wrangler dev` on a free port with a throwaway --persist-to dir,
// migrated (wrangler d1 migrations apply) and seeded (organisation `acme` and its user, SQL through
// wrangler d1 execute: scripts/seed.ts, as `npm start` does).
// wrangler dev reloads the worker whenever a source file changes, which would cut a long benchmark off in
// the middle (and lose local queue messages). So the worker is bundled once into the temp dir
// (wrangler deploy --dry-run --outdir) and wrangler dev runs that snapshot with --no-bundle.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, waitForServer } from '../../../scripts/lib/http.mjs';
import { seedDatabase } from '../../../scripts/lib/platform.mjs';
import { BIN, localEnv, ROOT, run } from '../../../scripts/lib/run.mjs';
import { SEED_ORG } from '../../../scripts/lib/seed-data.mjs';
import { killOnSignal, signalGroup } from './process-groups.mjs';

const wranglerEnv = () => localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' });

/** wrangler.toml pointed at the bundled snapshot, with absolute paths so it works from the temp dir. */
function snapshotConfig(buildDir, assetsDir = path.join(ROOT, 'dist', 'web')) {
  const original = readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8');
  const config = original
    .replace(/^main\s*=.*$/m, `main = ${JSON.stringify(path.join(buildDir, 'index.js'))}`)
    .replace(/^migrations_dir\s*=.*$/m, `migrations_dir = ${JSON.stringify(path.join(ROOT, 'migrations'))}`)
    .replace(/^directory\s*=\s*"\.\/dist\/web"/m, `directory = ${JSON.stringify(assetsDir)}`);
  if (config === original) throw new Error('could not rewrite wrangler.toml for the benchmark snapshot');
  return config;
}

/**
 * Starts the platform; returns { port, host, stateDir, config, child, inspectorPort, stop, removeState, restart,
 * secretsKey (its SECRETS_KEY, to seal what the bench stores) }.
 * stop() also deletes the temp dir, unless called with { keepState: true } (then removeState() does).
 * `vars` are extra worker vars (e.g. { REQUEST_COUNTING: 'off' }); restart(vars) stops this wrangler dev and starts
 * another on the same bundle and state (no bundling, migrating or seeding again).
 * `logLevel` is wrangler's (default: wrangler's own, which logs every request). Below 'info' the local runtime stops
 * posting a line per request to wrangler's node process (miniflare's request log), work a deployed worker never
 * does: a benchmark of a request path compared with another wrangler dev at 'warn' passes 'warn' too.
 * `assetsDir` serves other files than the built console's dist/web (bench:pages adds its baseline page to a copy).
 */
export async function startBenchPlatform(label, { vars = {}, logLevel = null, assetsDir } = {}) {
  const root = mkdtempSync(path.join(tmpdir(), `bench-${label}-`));
  const stateDir = path.join(root, 'state');
  const buildDir = path.join(root, 'build');
  const config = path.join(root, 'wrangler.toml');
  const logFile = path.join(root, 'wrangler.log');
  mkdirSync(path.join(ROOT, 'dist', 'web'), { recursive: true });
  const log = openSync(logFile, 'a');
  const quiet = { quiet: true, env: wranglerEnv(), stdio: ['ignore', log, log] };
  try {
    console.log(`bundling the worker and starting wrangler dev (state ${stateDir}, log ${logFile})`);
    await run(path.join(BIN, 'wrangler'), ['deploy', '--dry-run', '--outdir', buildDir], quiet);
    writeFileSync(config, snapshotConfig(buildDir, assetsDir));
    await run(path.join(BIN, 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', stateDir, '--config', config], quiet);
    await seedDatabase(stateDir, quiet);
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  } finally {
    closeSync(log);
  }
  return spawnDev({ root, stateDir, config, logFile, logLevel }, vars);
}

/** wrangler dev on the bundle and state under `dirs.root`, with fresh secrets and the given vars. */
async function spawnDev(dirs, vars) {
  const { root, stateDir, config, logFile, logLevel } = dirs;
  const log = openSync(logFile, 'a');
  let child = null;
  let exited = false;
  let forget = () => {};
  const stop = async ({ keepState = false } = {}) => {
    if (child && !exited) {
      const gone = new Promise((resolve) => child.once('exit', resolve));
      signalGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
      signalGroup(child.pid, 'SIGKILL');
    }
    forget();
    if (!keepState && !process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
  };
  try {
    const port = await freePort(8900);
    const inspectorPort = await freePort(9330);
    const args = ['dev', '--config', config, '--no-bundle', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', stateDir];
    args.push('--inspector-port', String(inspectorPort), '--inspector-ip', '127.0.0.1');
    if (logLevel) args.push('--log-level', logLevel);
    args.push('--show-interactive-dev-session=false', '--var', `JWT_SECRET:${randomBytes(32).toString('hex')}`);
    // Integration secrets and DKIM keys are sealed with it (the broadcast bench stores an smtp integration and a
    // sending domain's key); kept across restart(), so what was sealed stays readable.
    dirs.secretsKey ??= `bench:${randomBytes(32).toString('hex')}`;
    args.push('--var', `SECRETS_KEY:${dirs.secretsKey}`);
    for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
    child = spawn(path.join(BIN, 'wrangler'), args, { cwd: root, env: wranglerEnv(), stdio: ['ignore', log, log], detached: true });
    child.once('exit', () => (exited = true));
    forget = killOnSignal(child.pid);
    const host = `${SEED_ORG.domain}.localhost:${port}`;
    await waitForServer({ port, host, child, timeoutMs: 180_000 });
    console.log(`wrangler dev is up on 127.0.0.1:${port} (Host ${host})${Object.keys(vars).length ? ` with ${JSON.stringify(vars)}` : ''}`);
    const removeState = () => rmSync(root, { recursive: true, force: true });
    const restart = async (nextVars = {}) => {
      await stop({ keepState: true });
      return spawnDev(dirs, nextVars);
    };
    return { port, host, stateDir, config, child, inspectorPort, stop, removeState, restart, secretsKey: dirs.secretsKey };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    closeSync(log);
  }
}

/** Runs SQL against the platform's local D1 through `wrangler d1 execute --local --persist-to`; returns result rows. */
export function d1Execute(platform, sql) {
  return new Promise((resolve, reject) => {
    const args = ['d1', 'execute', 'DB', '--local', '--persist-to', platform.stateDir, '--config', platform.config, '--json', '--command', sql];
    const child = spawn(path.join(BIN, 'wrangler'), args, { cwd: ROOT, env: wranglerEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrangler d1 execute failed (${code}): ${err || out}`));
      try {
        resolve(JSON.parse(out).flatMap((r) => r.results ?? []));
      } catch {
        reject(new Error(`unexpected wrangler output: ${out.slice(0, 500)}`));
      }
    });
  });
}

/** The SQLite file miniflare keeps the local D1 database in (for the better-sqlite3 baselines). */
export function localD1File(stateDir) {
  const dir = path.join(stateDir, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite');
  if (!file) throw new Error(`no D1 sqlite file in ${dir}`);
  return path.join(dir, file);
}

/**
 * SQL for n contacts of the seeded organisation tagged `tag` ("<tag> 1", ...), each with one email address
 * (<tag lower case><id>@example.test): four statements, whatever n.
 */
export function taggedContactsSql(n, tag) {
  const org = "(SELECT id FROM organizations WHERE domain = 'acme')";
  const numbers = `WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < ${n}) SELECT x FROM k`;
  const local = tag.toLowerCase();
  return [
    `INSERT INTO tags (org_id, name) VALUES (${org}, '${tag}');`,
    `INSERT INTO contacts (org_id, name) SELECT ${org}, '${tag} ' || x FROM (${numbers});`,
    `INSERT INTO contact_addresses (org_id, contact_id, type, value) SELECT org_id, id, 'email', '${local}' || id || '@example.test' FROM contacts WHERE org_id = ${org} AND name LIKE '${tag} %';`,
    `INSERT INTO contact_tags (org_id, contact_id, tag_id) SELECT org_id, id, (SELECT id FROM tags WHERE org_id = ${org} AND name = '${tag}') FROM contacts WHERE org_id = ${org} AND name LIKE '${tag} %';`,
  ].join('\n');
}

/**
 * Runs a statement in every local ledger of the platform that has its tables (the OrgLedger Durable Objects'
 * SQLite files, src/modules/ledger: a bench's organisations' messages are there), as `d1Execute` does in D1's file.
 * Answers the rows of each.
 */
export function ledgerExecute(platform, sql) {
  const results = [];
  for (const file of ledgerFiles(platform.stateDir)) {
    const db = new Database(file);
    try {
      db.pragma('busy_timeout = 5000');
      if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'messages'").get()) continue;
      const statement = db.prepare(sql);
      results.push(...(statement.reader ? statement.all() : [statement.run()]));
    } finally {
      db.close();
    }
  }
  return results;
}

/** The local SQLite files of the organisations' ledgers (the OrgLedger Durable Objects). */
export function ledgerFiles(stateDir) {
  const dir = path.join(stateDir, 'v3', 'do', 'relay-OrgLedger');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
        .map((f) => path.join(dir, f))
    : [];
}
