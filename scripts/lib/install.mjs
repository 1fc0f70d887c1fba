// Dependencies and the pinned Node 22: the first thing `npm start` and `npm test` do on a fresh clone.
// Plain ESM on node: builtins only: this runs on the system Node (v20) before node_modules exists.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { BIN, ROOT, run, step } from './run.mjs';

const NODE22 = path.join(BIN, 'node');

/** Why dependencies need (re)installing, or null when node_modules is up to date with the lock file. */
export function installReason(root = ROOT) {
  const lock = path.join(root, 'package-lock.json');
  const installedLock = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(path.join(root, 'node_modules'))) return 'node_modules is missing';
  if (!existsSync(installedLock)) return 'node_modules has no record of an install';
  if (existsSync(lock) && statSync(lock).mtimeMs > statSync(installedLock).mtimeMs) return 'package-lock.json changed';
  if (!existsSync(NODE22)) return 'the pinned Node 22 (node_modules/.bin/node) is missing';
  return null;
}

/**
 * Installs dependencies when needed, at the versions of the lock file. `npm install` rather than `npm ci`:
 * npm ci refuses this lock file where the registry does not serve workerd's macOS/Windows packages, while
 * npm install takes the same lock file and skips them.
 */
export async function ensureInstalled(root = ROOT) {
  const reason = installReason(root);
  if (!reason) return;
  step(`Installing dependencies (${reason})`);
  // Plain PATH: npm itself comes from the system; no stale node_modules/.bin in front of it. Errors only: on the
  // host's Node 20 npm warns (EBADENGINE) about every package that wants the Node 22 this very install brings, a
  // wall of text before the platform's own progress. Every package runs on the pinned Node 22 (the Twilio mock is
  // held at a Prism release that does: package.json's overrides).
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: root, env: { ...process.env } });
}

/**
 * Continues the current script on the pinned Node 22 from node_modules when running on an older Node.
 * Returns normally when already on Node >= 22; otherwise never returns (exits with the child's status).
 */
export async function reexecOnNode22(scriptUrlPath) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= 22) return;
  if (!existsSync(NODE22)) {
    console.error(`Node ${process.versions.node} is too old and ${NODE22} is missing; run \`npm install\` first.`);
    process.exit(1);
  }
  const env = { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(NODE22, [scriptUrlPath, ...process.argv.slice(2)], { stdio: 'inherit', env, cwd: process.cwd() });
  // Ctrl-C reaches the child through the terminal's process group; a signal sent to this process only
  // (kill <pid>) is passed on. Either way we wait for the child and exit as it does.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    });
  }
  await new Promise(() => {
    child.on('exit', (code, signal) => process.exit(code ?? (signal === 'SIGINT' ? 130 : 143)));
    child.on('error', (err) => {
      console.error(`Could not start ${NODE22}: ${err.message}`);
      process.exit(1);
    });
  });
}
