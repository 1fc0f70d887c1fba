// The pieces of the SMTP benchmarks that run things: a free port, the counting sink in its own process, and the
// bench worker (test/bench/smtp/worker.ts: our transport in workerd) under wrangler dev. Used by bench:smtp and
// bench:broadcast (which compares a whole broadcast with the bare transport).
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killOnSignal, signalGroup } from '../support/process-groups.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../..');

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The sink child process and a way to read its message count. With `record: '<Header-Name>'` it also keeps when it
 * accepted each message and that header's value: `tagged()` counts the messages that had it, `records(from)` answers
 * [[at, value], ...] from that index on (at: epoch ms as performance.timeOrigin + performance.now()).
 */
export async function startSink({ record = null } = {}) {
  const child = fork(path.join(HERE, 'sink.mjs'), record ? ['--record', record] : [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`the sink exited (${code})`)));
  });
  // One question at a time: the sink answers in order, and each answer is read by the question that waits for it.
  let queue = Promise.resolve();
  const ask = (question, read) => {
    const answer = queue.then(
      () =>
        new Promise((resolve) => {
          child.once('message', (m) => resolve(read(m)));
          child.send(question);
        }),
    );
    queue = answer.catch(() => {});
    return answer;
  };
  const count = () => ask({ count: true }, (m) => m.count);
  const tagged = () => ask({ count: true }, (m) => m.tagged);
  const records = (from = 0) => ask({ records: from }, (m) => m.records);
  return { port, count, tagged, records, stop: () => child.kill() };
}

/** wrangler's log level for bench workers: below 'info', so no request is logged through wrangler's node process. */
export const BENCH_WORKER_LOG_LEVEL = 'warn';

/**
 * `wrangler dev` of a bench worker (default: the SMTP one) on a free port with a throwaway state folder; the worker
 * must answer GET /health.
 */
export async function startBenchWorker(config = path.join(HERE, 'wrangler.toml')) {
  const port = await freePort();
  const state = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-smtp-'));
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js'),
      'dev',
      '--config',
      config,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--persist-to',
      state,
      '--log-level',
      BENCH_WORKER_LOG_LEVEL,
      '--show-interactive-dev-session=false',
    ],
    { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
  const forget = killOnSignal(child.pid);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    signalGroup(child.pid, 'SIGTERM');
    forget();
    rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${output.slice(-3000)}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      stop();
      throw new Error(`wrangler dev did not start within 120 s:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop };
}
