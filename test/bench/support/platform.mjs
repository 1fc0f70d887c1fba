// The local platform for a benchmark: `wrangler dev` on a free port with a throwaway --persist-to dir,
// migrated and seeded (organisation `acme`, user SEED_USER) by the same code `npm start` uses.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '../../../scripts/lib/http.mjs';
import { startPlatform } from '../../../scripts/lib/platform.mjs';
import { BIN, localEnv, ROOT } from '../../../scripts/lib/run.mjs';
import { SEED_ORG } from '../../../scripts/lib/seed-data.mjs';

/** Starts the platform; returns { port, host, stateDir, logFile, child, stop }. stop() also deletes the temp dir. */
export async function startBenchPlatform(label) {
  const root = mkdtempSync(path.join(tmpdir(), `bench-${label}-`));
  const stateDir = path.join(root, 'state');
  const logFile = path.join(root, 'wrangler.log');
  const port = await freePort(8900);
  console.log(`starting wrangler dev on 127.0.0.1:${port} (state ${stateDir}, log ${logFile})`);
  let platform;
  try {
    platform = await startPlatform({ port, persistTo: stateDir, vars: { JWT_SECRET: randomBytes(32).toString('hex') }, logFile, quiet: true });
  } catch (err) {
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    host: `${SEED_ORG.domain}.localhost:${port}`,
    stateDir,
    logFile,
    child: platform.child,
    async stop() {
      await platform.stop();
      if (!process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Runs SQL against the platform's local D1 through `wrangler d1 execute --local --persist-to`; returns result rows. */
export function d1Execute(stateDir, sql) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(BIN, 'wrangler'),
      ['d1', 'execute', 'DB', '--local', '--persist-to', stateDir, '--json', '--command', sql],
      { cwd: ROOT, env: localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false' }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`wrangler d1 execute failed (${code}): ${err || out}`));
      try {
        const parsed = JSON.parse(out);
        resolve(parsed.flatMap((r) => r.results ?? []));
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
