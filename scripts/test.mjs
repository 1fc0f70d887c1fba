// `npm test`: installs, then runs every test stage in order and stops at the first failure:
// typecheck, lint, the worker's bundle and startup budgets, worker tests, transport tests, console tests, crash tests, deploy tests, browser end-to-end tests (builds the console and makes sure
// Chromium and SpamAssassin are installed first). Ends with a one-line summary; exits non-zero when a stage failed.
// Starts on the system Node (v20) with node: builtins only, then continues on the pinned Node 22.
import { fileURLToPath } from 'node:url';
import { ensureInstalled, reexecOnNode22 } from './lib/install.mjs';
import { main, npmRun, onShutdown, step } from './lib/run.mjs';

main(async () => {
  await ensureInstalled();
  await reexecOnNode22(fileURLToPath(import.meta.url));

  // A signal (Ctrl-C, a CI timeout) is passed on to the running stage, which stops its own servers.
  onShutdown(async () => console.log('\nTests interrupted.'));
  const { ensureChromium } = await import('./lib/chromium.mjs');
  const { ensureSpamAssassin } = await import('./lib/spamassassin.mjs');
  const stages = [
    ['typecheck', () => npmRun('typecheck')],
    ['lint (Biome)', () => npmRun('lint')],
    ['worker bundle and startup budgets (wrangler check startup)', () => npmRun('budgets')],
    ['worker tests', () => npmRun('test:worker')],
    ['transport tests (real SMTP servers, Twilio contract mock)', () => npmRun('test:transport')],
    ['console tests', () => npmRun('test:web')],
    ['crash tests (a consumer killed mid-batch, the local runtime killed mid-broadcast; real SMTP server)', () => npmRun('test:crash')],
    ['deploy tests (npm run deploy against a stand-in for the Cloudflare API)', () => npmRun('test:deploy')],
    [
      'browser end-to-end tests',
      async () => {
        await npmRun('build:web');
        await ensureChromium();
        await ensureSpamAssassin();
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
