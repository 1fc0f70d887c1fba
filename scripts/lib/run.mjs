// Running child processes for the repo scripts: inherited output, loud failures, and no orphans.
// Plain ESM on node: builtins only, so it works on the system Node before node_modules exists.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (scripts/lib/../..). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** node_modules/.bin of the repo, where the pinned Node 22, wrangler and vitest live. */
export const BIN = path.join(ROOT, 'node_modules', '.bin');

/** An environment with node_modules/.bin first on PATH, as `npm run` gives its scripts. */
export function localEnv(extra = {}) {
  return { ...process.env, PATH: `${BIN}${path.delimiter}${process.env.PATH ?? ''}`, ...extra };
}

/** Prints a step heading so long logs stay readable. */
export function step(message) {
  console.log(`\n\x1b[1m==> ${message}\x1b[0m`);
}

/** An error whose message is the whole story; scripts print it without a stack. */
export class CommandError extends Error {}

/**
 * Runs a command (inherited stdio unless `stdio` says otherwise) and resolves when it exits with 0; otherwise rejects with a
 * CommandError naming the command and its exit code or signal.
 */
export function run(command, args = [], options = {}) {
  const { env, cwd = ROOT, quiet = false, stdio = 'inherit' } = options;
  if (!quiet) console.log(`$ ${[command, ...args].join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: env ?? localEnv(), stdio });
    const stop = track(child);
    child.on('error', (err) => {
      stop();
      reject(new CommandError(`Could not start \`${command}\`: ${err.message}`));
    });
    child.on('exit', (code, signal) => {
      stop();
      if (code === 0) resolve();
      else reject(new CommandError(`\`${[command, ...args].join(' ')}\` failed (${signal ? `signal ${signal}` : `exit code ${code}`})`));
    });
  });
}

/**
 * Runs `npm run <script>` with its output kept instead of printed, for work that runs beside another (its output
 * would interleave). Never rejects: resolves with the output and, when it failed, the CommandError.
 */
export function npmRunKept(script) {
  return new Promise((resolve) => {
    let output = '';
    // Its own process group, so stopping it stops what npm started too (npm does not pass the signal on).
    const child = spawn('npm', ['run', script], { cwd: ROOT, env: localEnv(), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const stop = track({ kill: (signal) => process.kill(-child.pid, signal) });
    const keep = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => {
      stop();
      resolve({ output, error: new CommandError(`Could not start \`npm run ${script}\`: ${err.message}`) });
    });
    child.on('close', (code, signal) => {
      stop();
      const failed = code === 0 ? null : new CommandError(`\`npm run ${script}\` failed (${signal ? `signal ${signal}` : `exit code ${code}`})`);
      resolve({ output, error: failed });
    });
  });
}

/** Runs `npm run <script>` with the local bin first on PATH. */
export function npmRun(script, args = [], options = {}) {
  return run('npm', ['run', script, ...(args.length ? ['--', ...args] : [])], options);
}

// Children that are running right now, so a signal to this process reaches them too.
const running = new Set();

function track(child) {
  running.add(child);
  return () => running.delete(child);
}

/** Sends a signal to every child started by run() that is still running. */
export function signalChildren(signal) {
  for (const child of running) {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

// Cleanups of long-running things (servers in their own process group) that a signal must also stop.
const cleanups = new Set();

/** Registers a cleanup for onShutdown; returns a function that unregisters it. */
export function addCleanup(fn) {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/**
 * Calls `cleanup` once on SIGINT, SIGTERM or SIGHUP, forwards the signal to running children, then exits
 * with 130/143. Returns a function that removes the handlers.
 */
export function onShutdown(cleanup) {
  let done = false;
  const handler = async (signal) => {
    if (done) return;
    done = true;
    signalChildren(signal);
    try {
      await Promise.allSettled([cleanup(signal), ...[...cleanups].map((fn) => fn())]);
    } finally {
      process.exit(signal === 'SIGINT' ? 130 : 143);
    }
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, handler);
  return () => {
    for (const s of signals) process.off(s, handler);
  };
}

/** Runs a script's main function: a CommandError prints as one red line, anything else with its stack. */
export function main(fn) {
  fn().catch((err) => {
    if (err instanceof CommandError) console.error(`\n\x1b[31mError: ${err.message}\x1b[0m`);
    else console.error(err);
    process.exit(1);
  });
}
