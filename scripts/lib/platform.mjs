// Starting the whole local platform (D1 migrations, seed, `wrangler dev`) on a given port and state dir.
// `npm start` runs it on .wrangler/state; the browser tests run it on a throwaway dir and a free port.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitForServer } from './http.mjs';
import { addCleanup, BIN, localEnv, ROOT, run } from './run.mjs';
import { SEED_ORG } from './seed-data.mjs';
import { oidcProviderVars } from '../oidc-provider.mjs';
import { turnstileStandInVars } from '../turnstile-stand-in.mjs';

/**
 * Wrangler without prompts, metrics or the interactive hotkeys, and without fetching the `Request.cf` placeholder
 * from the internet (offline it warned twice and waited 3 s each time; the local fallback is what it used then too).
 */
function wranglerEnv() {
  return localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', NO_COLOR: process.env.NO_COLOR ?? '' });
}

/** Applies every D1 migration to the local database in `persistTo`. */
export async function applyMigrations(persistTo, options = {}) {
  await run(path.join(BIN, 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persistTo], {
    env: wranglerEnv(),
    ...options,
  });
}

/**
 * Seeds `acme`, its admin user and (given the worker's SECRETS_KEY) the example channels pointing at the
 * local mail and SMS catchers, and its webhook endpoint on the local webhook catcher, into the local database in
 * `persistTo` (scripts/seed.ts).
 */
export async function seedDatabase(
  persistTo,
  { secretsKey, smtpPort, smsPort, dnsZone, webhookPort, webhookSecrets, dohUrl: _dohUrl, oidcIssuer: _oidc, turnstileUrl: _turnstile, ...options } = {},
) {
  const args = [path.join(ROOT, 'scripts', 'seed.ts'), '--persist-to', persistTo];
  // The seeded sending domain's records go into the local DoH stand-in's zone file (scripts/doh-stand-in.mjs).
  if (dnsZone) args.push('--dns-zone', dnsZone);
  if (smtpPort) args.push('--smtp-port', String(smtpPort));
  if (smsPort) args.push('--sms-port', String(smsPort));
  // The endpoint's plain secret goes into the webhook catcher's secrets file (scripts/webhook-catcher.mjs).
  if (webhookPort && webhookSecrets) args.push('--webhook-port', String(webhookPort), '--webhook-secrets', webhookSecrets);
  // The key goes through the environment, not the command line other processes can read.
  await run(path.join(BIN, 'node'), args, { ...options, env: localEnv({ SEED_SECRETS_KEY: secretsKey ?? '' }) });
}

/**
 * Migrates and seeds `persistTo`, runs `wrangler dev` on 127.0.0.1:<port> and waits until
 * http://acme.localhost:<port>/api/v1/init/guest answers. Returns { url, port, child, stop }.
 * Options: vars (extra worker vars, e.g. JWT_SECRET, SECRETS_KEY), catchers ({ smtpPort, smsPort, oidcIssuer, dohUrl,
 * dnsZone, webhookPort, webhookSecrets, turnstileUrl }: the local mail and SMS catchers the seeded example channels point
 * at, the local OpenID Connect provider, the local DoH stand-in with its zone file, where the seed writes the seeded
 * sending domain's records, the local webhook catcher with its secrets file, where the seed writes its endpoint's
 * secret, and the Turnstile stand-in; the worker is told their addresses, see localServiceVars),
 * logFile (wrangler output there instead of this terminal), quiet (do not echo the commands), restart (the state
 * was migrated and seeded by an earlier start with the same catchers: only `wrangler dev` starts again).
 */
export async function startPlatform({ port, persistTo, vars = {}, catchers = {}, logFile, quiet = false, timeoutMs = 180_000, restart = false }) {
  mkdirSync(persistTo, { recursive: true });
  // The assets binding needs its folder even before the console is built.
  mkdirSync(path.join(ROOT, 'dist', 'web'), { recursive: true });
  const stdio = logFile ? openSync(logFile, 'a') : 'inherit';
  const childOptions = { quiet, ...(logFile ? { stdio: ['ignore', stdio, stdio] } : {}) };
  try {
    if (!restart) {
      await applyMigrations(persistTo, childOptions);
      await seedDatabase(persistTo, { ...childOptions, secretsKey: vars.SECRETS_KEY, ...catchers });
    }
  } catch (err) {
    if (logFile) closeSync(stdio);
    throw withLog(err, logFile);
  }

  // --test-scheduled: the worker's crons can be called at /__scheduled (wrangler dev never runs them by itself).
  const args = ['dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', persistTo, '--show-interactive-dev-session=false', '--test-scheduled'];
  // The boot epoch (src/modules/sending/queue-epoch.ts): wrangler dev keeps its queues in memory, so every queue
  // message handed off before this moment dies with the last runtime; the worker takes those rows back at once.
  // Taken before wrangler starts, so no claim of this runtime is older. A caller may set it empty (the queue kept).
  const workerVars = { ...localServiceVars(port, catchers), QUEUE_LOST_BEFORE: String(Date.now()), ...vars };
  for (const [key, value] of Object.entries(workerVars)) args.push('--var', `${key}:${value}`);
  if (!quiet) console.log(`$ wrangler ${args.map((a, i) => (args[i - 1] === '--var' ? `${a.split(':')[0]}:***` : a)).join(' ')}`);
  // Its own process group, so stop() can end wrangler and the workerd it starts together.
  const child = spawn(path.join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    env: wranglerEnv(),
    stdio: ['ignore', logFile ? stdio : 'inherit', logFile ? stdio : 'inherit'],
    detached: true,
  });
  if (logFile) closeSync(stdio);
  let exited = child.exitCode !== null;
  const exitedPromise = new Promise((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );

  let crons = { stop() {} };
  async function stop() {
    crons.stop();
    unregister();
    if (exited) {
      signalGroup(child.pid, 'SIGKILL'); // wrangler is gone; take any workerd it left behind
      return;
    }
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 10_000);
    await exitedPromise;
    clearTimeout(timer);
    // workerd may outlive wrangler by a moment; make sure nothing of the group is left.
    signalGroup(child.pid, 'SIGKILL');
  }

  const unregister = addCleanup(stop);

  const host = `${SEED_ORG.domain}.localhost:${port}`;
  try {
    await waitForServer({ port, host, child, timeoutMs });
  } catch (err) {
    await stop();
    throw withLog(err, logFile);
  }
  crons = runCrons(port);
  return { url: `http://${host}`, port, child, stop };
}

/**
 * The worker's crons as production runs them (wrangler.toml [triggers], src/scheduled.ts): both now, at boot (a
 * restart forgets the Durable Objects' alarms, and the watchdog pokes every active broadcast's runner), then the
 * watchdog every minute and the housekeeping every 15 minutes. Returns { stop }.
 */
function runCrons(port) {
  const call = (cron) =>
    fetch(`http://127.0.0.1:${port}/__scheduled?cron=${encodeURIComponent(cron)}`).then(
      (res) => res.body?.cancel(),
      () => {}, // the platform is stopping or restarting; the next beat tries again
    );
  const schedule = [
    ['* * * * *', 60_000],
    ['*/15 * * * *', 15 * 60_000],
  ];
  const timers = schedule.map(([cron, every]) => {
    void call(cron);
    const timer = setInterval(() => void call(cron), every);
    timer.unref();
    return timer;
  });
  return { stop: () => timers.forEach(clearInterval) };
}

/**
 * The worker vars that point the platform at the local services: its own address for links (sign-up
 * completion, password reset), the mail catcher as the system SMTP and the bounce domain, the SMS catcher as Twilio,
 * the local OpenID Connect provider as social sign-in, and the Turnstile stand-in as the hosted forms' bot check.
 */
function localServiceVars(port, { smtpPort, smsPort, oidcIssuer, dohUrl, turnstileUrl } = {}) {
  // Webhooks may go to the local catchers (http, loopback, any port): local only, the deploy never sets it.
  const out = { PUBLIC_URL: `http://localhost:${port}`, WEBHOOKS_ALLOW_LOCAL: 'true' };
  // The mail catcher answers hard-bounce@, soft-bounce@ and complaint@ at the worker's email handler: every email's
  // return path is a bounce address on this domain (src/modules/bounce).
  if (smtpPort)
    Object.assign(out, { SYSTEM_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SYSTEM_MAIL_FROM: 'Relay <no-reply@localhost>', BOUNCE_DOMAIN: 'bounces.localhost' });
  if (smsPort) out.TWILIO_API_BASE = `http://127.0.0.1:${smsPort}`;
  if (oidcIssuer) Object.assign(out, oidcProviderVars(oidcIssuer));
  // The sending-domain checks ask the local DoH stand-in instead of Cloudflare's resolver (src/modules/domain).
  if (dohUrl) out.DNS_RESOLVER_URL = dohUrl;
  // The hosted forms' Turnstile widget and siteverify: the stand-in with Cloudflare's test keys (src/modules/form).
  if (turnstileUrl) Object.assign(out, turnstileStandInVars(turnstileUrl));
  return out;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Adds the end of the log file to an error, so a failure in CI says why. */
function withLog(err, logFile) {
  if (!logFile) return err;
  let tail = '';
  try {
    tail = readFileSync(logFile, 'utf8').split('\n').slice(-60).join('\n');
  } catch {
    // no log
  }
  return new Error(`${err.message}\n--- last lines of ${logFile} ---\n${tail}`);
}
