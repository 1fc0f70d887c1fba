// `npm start`: installs, builds the console, migrates and seeds local D1, starts the mail catcher and
// `wrangler dev`, and prints where to go. Ctrl-C stops everything.
// Starts on the system Node (v20) with node: builtins only, then continues on the pinned Node 22.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, reexecOnNode22 } from './lib/install.mjs';
import { CommandError, main, npmRun, onShutdown, ROOT, step } from './lib/run.mjs';

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
    console.log(`Wrote a random ${name} to .dev.vars`);
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
  const { SEED_USER } = await import('./lib/seed-data.mjs');
  const port = Number(process.env.PORT) || 8787;
  const mailPort = Number(process.env.MAIL_PORT) || 1025;
  const mailUiPort = Number(process.env.MAIL_UI_PORT) || 8025;
  const smsPort = Number(process.env.SMS_PORT) || 8026;
  const oidcPort = Number(process.env.OIDC_PORT) || 8027;
  for (const [p, name] of [
    [port, 'PORT'],
    [mailPort, 'MAIL_PORT'],
    [mailUiPort, 'MAIL_UI_PORT'],
    [smsPort, 'SMS_PORT'],
    [oidcPort, 'OIDC_PORT'],
  ]) {
    if (!(await portIsFree(p)))
      throw new CommandError(`Port ${p} on 127.0.0.1 is in use (is \`npm start\` already running?). Stop that, or pick another with ${name}=...`);
  }

  const secrets = ensureDevVars();
  step('Building the console');
  await npmRun('build:web');

  let platform = null;
  let catcher = null;
  let smsCatcher = null;
  let oidc = null;
  const stopAll = async () => {
    await Promise.allSettled([platform?.stop(), catcher?.close(), smsCatcher?.close(), oidc?.close()]);
  };
  let stopping = false;
  onShutdown(async () => {
    stopping = true;
    console.log('\nStopping…');
    await stopAll();
  });

  step('Starting the local mail catcher');
  catcher = await startMailCatcher({ smtpPort: mailPort, httpPort: mailUiPort, dir: path.join(ROOT, '.local', 'mail') });
  console.log(`SMTP on 127.0.0.1:${catcher.smtpPort}, viewer on http://127.0.0.1:${catcher.httpPort}`);
  step('Starting the local SMS catcher');
  smsCatcher = await startSmsCatcher({ port: smsPort, dir: path.join(ROOT, '.local', 'sms') });
  console.log(`Twilio-shaped API and viewer on ${smsCatcher.url}`);
  step('Starting the local OpenID Connect provider');
  oidc = await startOidcProvider({ port: oidcPort });
  console.log(`Issuer ${oidc.issuer} (social sign-in "${LOCAL_OIDC_CLIENT.name}")`);

  // The bounces and complaints the catcher plays go to wrangler dev's email endpoint (the worker's email handler).
  catcher.answerBouncesAt(`http://127.0.0.1:${port}/cdn-cgi/local/email`);
  step('Applying D1 migrations, seeding, starting wrangler dev');
  try {
    platform = await startPlatform({
      port,
      persistTo: path.join(ROOT, '.wrangler', 'state'),
      vars: { SECRETS_KEY: secrets.SECRETS_KEY },
      catchers: { smtpPort: catcher.smtpPort, smsPort: smsCatcher.port, oidcIssuer: oidc.issuer },
    });
  } catch (err) {
    await stopAll();
    throw new CommandError(err.message);
  }

  const rel = path.relative(process.cwd(), catcher.dir) || catcher.dir;
  console.log(`
\x1b[1m\x1b[32mThe platform is running.\x1b[0m
  Open:         \x1b[1m${platform.url}\x1b[0m
  Sign in:      ${SEED_USER.username} / ${SEED_USER.password}
  Caught mail:  http://127.0.0.1:${catcher.httpPort}  (SMTP 127.0.0.1:${catcher.smtpPort}, files in ${rel})
  Caught SMS:   ${smsCatcher.url}  (files in ${path.relative(process.cwd(), smsCatcher.dir) || smsCatcher.dir})
  Try it:       Templates -> a template -> Send test message, from hello@acme.test or +15005550006
  Sign up:      http://localhost:${port}/signup  (test checkout; the completion link arrives in the caught mail)
  Shared demo:  http://demo.localhost:${port}  (see its demo info page for the login)
  Operator:     npm run operator -- requests   (token OPERATOR_TOKEN in .dev.vars)
Press Ctrl-C to stop.
`);

  await new Promise((resolve) => platform.child.once('exit', resolve));
  if (stopping) return new Promise(() => {}); // the signal handler finishes and exits
  // wrangler ended without us asking: take the catcher down too and say so.
  await stopAll();
  throw new CommandError('wrangler dev exited');
});
