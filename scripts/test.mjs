// `npm test`: installs, then runs every test stage in order and stops at the first failure:
// the console build, typecheck, lint, the worker's bundle and startup budgets, worker tests, transport tests, console
// tests, crash tests, deploy tests, browser end-to-end tests (Chromium and SpamAssassin installed first). The deploy
// tests and the Debian packages start beside the stages after the build (see below). Ends with a one-line summary;
// exits non-zero when a stage failed.
// Starts on the system Node (v20) with node: builtins only, then continues on the pinned Node 22.
import { mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, reexecOnNode22 } from './lib/install.mjs';
import { main, npmRun, npmRunKept, onShutdown, ROOT, signalChildren, step } from './lib/run.mjs';

main(async () => {
  await ensureInstalled();
  await reexecOnNode22(fileURLToPath(import.meta.url));

  // A signal (Ctrl-C, a CI timeout) is passed on to the running stage, which stops its own servers.
  onShutdown(async () => console.log('\nTests interrupted.'));
  const { ensureChromium } = await import('./lib/chromium.mjs');
  const { ensureSpamAssassin } = await import('./lib/spamassassin.mjs');

  // Started once the console is built, beside the stages that follow, to keep the run under CI's 20 minutes; each is
  // awaited at its own stage (the order, the stop at the first failure and the summary stay as they were):
  // - the deploy tests: wrangler processes against a stand-in for the Cloudflare API; they time nothing and touch
  //   nothing typecheck and lint read (their deploys build the console again: nothing changes in dist/web, built
  //   first for that). Their output is kept and printed at their stage, so the log reads in order.
  // - the browser tests' Debian packages (Chromium, SpamAssassin): on a fresh machine a minute or two of downloads,
  //   their apt-get output in test-results/debian-packages.log.
  let deployTests;
  let packages;
  const startBeside = () => {
    deployTests = npmRunKept('test:deploy');
    mkdirSync(path.join(ROOT, 'test-results'), { recursive: true });
    const aptLog = openSync(path.join(ROOT, 'test-results', 'debian-packages.log'), 'a');
    packages = (async () => {
      await ensureChromium({ log: aptLog });
      await ensureSpamAssassin({ log: aptLog });
    })();
    // Awaited at the e2e stage; until then a failure must not be an unhandled rejection.
    packages.catch(() => undefined);
  };

  const stages = [
    [
      'console build (dist/web; the deploy tests and the Debian packages then start beside the next stages)',
      async () => {
        await npmRun('build:web');
        startBeside();
      },
    ],
    ['typecheck', () => npmRun('typecheck')],
    ['lint (Biome)', () => npmRun('lint')],
    ['worker bundle and startup budgets (wrangler check startup)', () => npmRun('budgets')],
    ['worker tests', () => npmRun('test:worker')],
    ['transport tests (real SMTP servers, Twilio contract mock)', () => npmRun('test:transport')],
    ['console tests', () => npmRun('test:web')],
    ['crash tests (a consumer killed mid-batch, the local runtime killed mid-broadcast; real SMTP server)', () => npmRun('test:crash')],
    [
      'deploy tests (npm run deploy against a stand-in for the Cloudflare API; started after the console build)',
      async () => {
        const { output, error } = await deployTests;
        process.stdout.write(output);
        if (error) throw error;
      },
    ],
    [
      'browser end-to-end tests',
      async () => {
        await packages;
        await npmRun('test:e2e');
      },
    ],
  ];

  const results = [];
  const started = Date.now();
  for (const [name, fn] of stages) {
    step(`Stage ${results.length + 1}/${stages.length}: ${name}`);
    const t0 = Date.now();
    try {
      await fn();
      results.push({ name, ok: true, seconds: (Date.now() - t0) / 1000 });
    } catch (err) {
      results.push({ name, ok: false, seconds: (Date.now() - t0) / 1000, error: err.message });
      break;
    }
  }
  // After a failure, what still runs beside (the deploy tests, an install) is stopped.
  signalChildren('SIGTERM');

  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  const notRun = stages.length - results.length;
  console.log('\nTest stages:');
  for (const r of results) {
    console.log(`  ${r.ok ? '\x1b[32mPASS\x1b[0m' : '\x1b[31mFAIL\x1b[0m'}  ${r.name} (${r.seconds.toFixed(1)}s)${r.ok ? '' : `: ${r.error}`}`);
  }
  for (const [name] of stages.slice(results.length)) console.log(`  SKIP  ${name} (not run after a failure)`);
  const total = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\nTest stages took ${total}s${notRun ? `; ${notRun} not run after a failure` : ''}.`);
  // The last line is the plain 'N passed, N failed' that CI reads, so no colour codes or extras on it.
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
});
