import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../../scripts/lib/http.mjs';
import { startPlatform } from '../../scripts/lib/platform.mjs';
import { startMailCatcher } from '../../scripts/mail-catcher.mjs';
import { startSmsCatcher } from '../../scripts/sms-catcher.mjs';
import { startOidcProvider } from '../../scripts/oidc-provider.mjs';
import { startTurnstileStandIn } from '../../scripts/turnstile-stand-in.mjs';
import { startWebhookCatcher } from '../../scripts/webhook-catcher.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** http://acme.localhost:<port>, the seeded organisation. */
    baseUrl: string;
    port: number;
    /** The mail catcher's viewer, e.g. http://127.0.0.1:<port> (GET /messages.json, DELETE /messages). */
    mailUrl: string;
    mailSmtpPort: number;
    /** The SMS catcher: Twilio-shaped API and viewer (GET /messages.json). */
    smsUrl: string;
    /** The bare platform host, http://localhost:<port> (sign-up, pre-registration). */
    platformUrl: string;
    /** Bearer token of the operator API. */
    operatorToken: string;
    /** The local OpenID Connect provider (oauth2-mock-server) offered as social sign-in. */
    oidcIssuer: string;
    /** The webhook catcher (GET /api/requests, DELETE /api/requests); the seeded endpoint is its /relay. */
    webhookUrl: string;
    /** The Turnstile stand-in the hosted forms use (GET /api/verifications lists what siteverify was asked). */
    turnstileUrl: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Starts the local platform once for all browser tests: a fresh D1/R2/queue state in a temp dir, a free
 * port, random secrets, and mail and SMS catchers on free ports (the seeded example channels point at them).
 * Returns the teardown that stops it all.
 */
export default async function setup(project: TestProject) {
  const state = mkdtempSync(path.join(os.tmpdir(), 'relay-e2e-'));
  const results = path.join(root, 'test-results');
  mkdirSync(results, { recursive: true });
  const logFile = path.join(results, 'e2e-wrangler.log');
  rmSync(logFile, { force: true });

  const catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, dir: path.join(state, 'mail') });
  const smsCatcher = await startSmsCatcher({ port: 0, dir: path.join(state, 'sms') });
  const oidc = await startOidcProvider({ port: 0 });
  const webhooks = await startWebhookCatcher({ port: 0, secretsFile: path.join(state, 'webhooks.json') });
  const turnstile = await startTurnstileStandIn({ port: 0 });
  const port = await freePort(8790);
  catcher.answerBouncesAt(`http://127.0.0.1:${port}/cdn-cgi/local/email`);
  const operatorToken = randomBytes(24).toString('hex');
  let platform: Awaited<ReturnType<typeof startPlatform>> | undefined;
  try {
    platform = await startPlatform({
      port,
      persistTo: path.join(state, 'wrangler'),
      vars: {
        JWT_SECRET: randomBytes(32).toString('hex'),
        SECRETS_KEY: `e2e:${randomBytes(32).toString('hex')}`,
        OPERATOR_TOKEN: operatorToken,
      },
      catchers: {
        smtpPort: catcher.smtpPort,
        smsPort: smsCatcher.port,
        oidcIssuer: oidc.issuer,
        webhookPort: webhooks.port,
        webhookSecrets: webhooks.secretsFile,
        turnstileUrl: turnstile.url,
      },
      logFile,
      quiet: true,
    });
  } catch (err) {
    await Promise.allSettled([catcher.close(), smsCatcher.close(), oidc.close(), webhooks.close(), turnstile.close()]);
    rmSync(state, { recursive: true, force: true });
    throw err;
  }
  // Should the runner die without calling the teardown, still take wrangler's process group with it.
  const pid = platform.child.pid;
  const killOnExit = () => {
    try {
      if (pid) process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);

  project.provide('baseUrl', platform.url);
  project.provide('port', port);
  project.provide('mailUrl', `http://127.0.0.1:${catcher.httpPort}`);
  project.provide('mailSmtpPort', catcher.smtpPort);
  project.provide('smsUrl', smsCatcher.url);
  project.provide('platformUrl', `http://localhost:${port}`);
  project.provide('operatorToken', operatorToken);
  project.provide('oidcIssuer', oidc.issuer);
  project.provide('webhookUrl', webhooks.url);
  project.provide('turnstileUrl', turnstile.url);
  console.log(`e2e: platform at ${platform.url} (log: ${path.relative(root, logFile)}), mail viewer http://127.0.0.1:${catcher.httpPort}`);

  return async () => {
    await Promise.allSettled([platform.stop(), catcher.close(), smsCatcher.close(), oidc.close(), webhooks.close(), turnstile.close()]);
    process.off('exit', killOnExit);
    rmSync(state, { recursive: true, force: true });
  };
}
