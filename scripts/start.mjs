// `npm start`: installs, builds the console, migrates and seeds local D1, starts the mail, SMS and webhook catchers,
// the Turnstile stand-in and `wrangler dev`, and prints where to go. Ctrl-C stops everything.
// The terminal gets one line per step and the final block; the build's, the migrations' and wrangler's own output go
// to a log file (START_LOG) the final block names, so what a newcomer needs is not buried under 1,600 lines.
// Starts on the system Node (v20) with node: builtins only, then continues on the pinned Node 22.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, reexecOnNode22 } from './lib/install.mjs';
import { CommandError, main, npmRun, onShutdown, ROOT } from './lib/run.mjs';

// STATE_DIR moves the local state (the D1/R2/Durable Object files, caught mail and SMS, the log) out of the clone,
// as the quick-start test does to run beside a developer's own `npm start`.
const STATE_DIR = process.env.STATE_DIR ? path.resolve(process.env.STATE_DIR) : null;
/** The caught mail and SMS and the log. */
const LOCAL_DIR = STATE_DIR ? path.join(STATE_DIR, 'local') : path.join(ROOT, '.local');
/** wrangler's local D1, R2, queues and Durable Objects. */
const PERSIST_TO = STATE_DIR ? path.join(STATE_DIR, 'wrangler') : path.join(ROOT, '.wrangler', 'state');
/** Where the details of this run go: the console's build, the migrations, the seed and wrangler dev. */
const START_LOG = path.join(LOCAL_DIR, 'start.log');

/** Local secrets: the token signing key and the key integration secrets are encrypted with. */
const LOCAL_SECRETS = {
  JWT_SECRET: () => randomBytes(32).toString('hex'),
  SECRETS_KEY: () => `local:${randomBytes(32).toString('hex')}`,
  OPERATOR_TOKEN: () => randomBytes(24).toString('hex'),
};

/** Makes sure .dev.vars holds every local secret (random, kept once written); returns their values. */
function ensureDevVars() {
  const file = path.join(ROOT, '.dev.vars');
  let current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const values = {};
  for (const [name, make] of Object.entries(LOCAL_SECRETS)) {
    const found = new RegExp(`^\\s*${name}\\s*=\\s*(\\S{32,})`, 'm').exec(current);
    if (found) {
      values[name] = found[1];
      continue;
    }
    values[name] = make();
    current = `${current}${current && !current.endsWith('\n') ? '\n' : ''}${name}=${values[name]}\n`;
    console.log(`  Wrote a random ${name} to .dev.vars`);
  }
  writeFileSync(file, current);
  return values;
}

main(async () => {
  await ensureInstalled();
  await reexecOnNode22(fileURLToPath(import.meta.url));

  // From here on: Node 22 with node_modules installed.
  const { portIsFree } = await import('./lib/http.mjs');
  const { startPlatform } = await import('./lib/platform.mjs');
  const { startMailCatcher } = await import('./mail-catcher.mjs');
  const { startSmsCatcher } = await import('./sms-catcher.mjs');
  const { startOidcProvider, LOCAL_OIDC_CLIENT } = await import('./oidc-provider.mjs');
  const { startDohStandIn } = await import('./doh-stand-in.mjs');
  const { startWebhookCatcher } = await import('./webhook-catcher.mjs');
  const { startTurnstileStandIn } = await import('./turnstile-stand-in.mjs');
  const { SEED_USER } = await import('./lib/seed-data.mjs');
  const port = Number(process.env.PORT) || 8787;
  const mailPort = Number(process.env.MAIL_PORT) || 1025;
  const mailUiPort = Number(process.env.MAIL_UI_PORT) || 8025;
  const smsPort = Number(process.env.SMS_PORT) || 8026;
  const oidcPort = Number(process.env.OIDC_PORT) || 8027;
  const dohPort = Number(process.env.DOH_PORT) || 8028;
  const webhookPort = Number(process.env.WEBHOOK_PORT) || 8029;
  const turnstilePort = Number(process.env.TURNSTILE_PORT) || 8031;
  for (const [p, name] of [
    [port, 'PORT'],
    [mailPort, 'MAIL_PORT'],
    [mailUiPort, 'MAIL_UI_PORT'],
    [smsPort, 'SMS_PORT'],
    [oidcPort, 'OIDC_PORT'],
    [dohPort, 'DOH_PORT'],
    [webhookPort, 'WEBHOOK_PORT'],
    [turnstilePort, 'TURNSTILE_PORT'],
  ]) {
    if (!(await portIsFree(p)))
      throw new CommandError(`Port ${p} on 127.0.0.1 is in use (is \`npm start\` already running?). Stop that, or pick another with ${name}=...`);
  }

  mkdirSync(path.dirname(START_LOG), { recursive: true });
  writeFileSync(START_LOG, `npm start, ${new Date().toISOString()}\n`);
  const logShown = shortPath(START_LOG);
  console.log(`Starting Relay (details in ${logShown})`);
  const secrets = ensureDevVars();
  await progress('Building the console', () => withLog((stdio) => npmRun('build:web', [], { stdio, quiet: true })));

  let platform = null;
  let catcher = null;
  let smsCatcher = null;
  let oidc = null;
  let dns = null;
  let webhooks = null;
  let turnstile = null;
  const stopAll = async () => {
    await Promise.allSettled([platform?.stop(), catcher?.close(), smsCatcher?.close(), oidc?.close(), dns?.close(), webhooks?.close(), turnstile?.close()]);
  };
  let stopping = false;
  onShutdown(async () => {
    stopping = true;
    console.log('\nStopping…');
    await stopAll();
  });

  await progress('Starting the mail catcher', async () => {
    catcher = await startMailCatcher({ smtpPort: mailPort, httpPort: mailUiPort, dir: path.join(LOCAL_DIR, 'mail') });
  });
  await progress('Starting the SMS catcher', async () => {
    smsCatcher = await startSmsCatcher({ port: smsPort, dir: path.join(LOCAL_DIR, 'sms') });
  });
  await progress('Starting the OpenID Connect provider', async () => {
    oidc = await startOidcProvider({ port: oidcPort });
  });
  // The sending-domain checks' resolver: answers from a zone file the seed writes the seeded domain's records into.
  await progress('Starting the DNS stand-in', async () => {
    dns = await startDohStandIn({ port: dohPort, file: path.join(LOCAL_DIR, 'dns.json') });
  });
  // The seeded organisation's webhook endpoint points at it; the seed writes the endpoint's secret into its file.
  await progress('Starting the webhook catcher', async () => {
    webhooks = await startWebhookCatcher({ port: webhookPort, secretsFile: path.join(LOCAL_DIR, 'webhooks.json') });
  });
  // The hosted sign-up forms' bot check: Turnstile's widget script and siteverify with Cloudflare's test keys, offline.
  await progress('Starting the Turnstile stand-in', async () => {
    turnstile = await startTurnstileStandIn({ port: turnstilePort });
  });

  // The bounces and complaints the catcher plays go to wrangler dev's email endpoint (the worker's email handler).
  catcher.answerBouncesAt(`http://127.0.0.1:${port}/cdn-cgi/local/email`);
  try {
    await progress('Migrating and seeding the local database, starting wrangler dev', async () => {
      platform = await startPlatform({
        port,
        persistTo: PERSIST_TO,
        vars: { SECRETS_KEY: secrets.SECRETS_KEY },
        catchers: {
          smtpPort: catcher.smtpPort,
          smsPort: smsCatcher.port,
          oidcIssuer: oidc.issuer,
          dohUrl: dns.url,
          dnsZone: dns.file,
          webhookPort: webhooks.port,
          webhookSecrets: webhooks.secretsFile,
          turnstileUrl: turnstile.url,
        },
        logFile: START_LOG,
        quiet: true,
      });
    });
  } catch (err) {
    await stopAll();
    throw new CommandError(err.message);
  }

  const rel = shortPath(catcher.dir);
  console.log(`
\x1b[1m\x1b[32mThe platform is running.\x1b[0m
  Open:         \x1b[1m${platform.url}\x1b[0m
  Sign in:      ${SEED_USER.username} / ${SEED_USER.password}
  Caught mail:  http://127.0.0.1:${catcher.httpPort}  (SMTP 127.0.0.1:${catcher.smtpPort}, files in ${rel})
  Caught SMS:   ${smsCatcher.url}  (files in ${shortPath(smsCatcher.dir)})
  Webhooks:     ${webhooks.url}  (Acme's endpoint ${webhooks.url}/relay takes every event; signatures checked with ${shortPath(webhooks.secretsFile)})
  Try it:       Templates -> a template -> Send test message, from hello@acme.test or +15005550006
  Sign up:      http://localhost:${port}/signup  (test checkout; the completion link arrives in the caught mail)
  Shared demo:  http://demo.localhost:${port}  (see its demo info page for the login)
  Turnstile:    ${turnstile.url}/turnstile/v0/  (stand-in for the hosted forms' bot check: Cloudflare's test keys, no network)
  DNS:          ${dns.url}  (answers from ${shortPath(dns.file)}: Domains -> acme.test -> Check now verifies it offline)
  Social:       "Continue with ${LOCAL_OIDC_CLIENT.name}" signs in through ${oidc.issuer} (link it under My account first)
  Operator:     npm run operator -- requests   (token OPERATOR_TOKEN in .dev.vars)
  Log:          ${logShown}  (the build, migrations, seed and wrangler dev's requests; tail -f it)
Press Ctrl-C to stop.
`);

  await new Promise((resolve) => platform.child.once('exit', resolve));
  if (stopping) return new Promise(() => {}); // the signal handler finishes and exits
  // wrangler ended without us asking: take the catcher down too and say so.
  await stopAll();
  throw new CommandError(`wrangler dev exited (its last words are in ${logShown})`);
});

/** A path as the person at this terminal would type it: relative to where they are when it is inside, else whole. */
function shortPath(file) {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** Runs one step of the start, printing its name, then how long it took (or that it failed). */
async function progress(name, fn) {
  const started = Date.now();
  process.stdout.write(`  ${name}… `);
  try {
    await fn();
  } catch (err) {
    console.log('\x1b[31mfailed\x1b[0m');
    throw err;
  }
  console.log(`done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

/** Runs a command with its output appended to START_LOG; a failure carries the log's last lines. */
async function withLog(fn) {
  const fd = openSync(START_LOG, 'a');
  try {
    await fn(['ignore', fd, fd]);
  } catch (err) {
    const tail = readFileSync(START_LOG, 'utf8').split('\n').slice(-40).join('\n');
    throw new CommandError(`${err.message}\n--- last lines of ${START_LOG} ---\n${tail}`);
  } finally {
    closeSync(fd);
  }
}
