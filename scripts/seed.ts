// Seeds the example organisation `acme` and its admin user into local D1, idempotently: run it as often as
// you like, it upserts (and resets the password to the one printed).
// With SEED_SECRETS_KEY set (the worker's SECRETS_KEY) it also seeds the example channels: an smtp integration
// to the local mail catcher and a twilio integration to the local SMS catcher, each with a sender; with --dns-zone too,
// a sending domain for the email sender's domain, whose records it writes into that zone file of the local DoH
// stand-in (scripts/doh-stand-in.mjs), so "Check now" on the Domains screen verifies it offline; with --webhook-port
// and --webhook-secrets too, a webhook endpoint on the local webhook catcher (scripts/webhook-catcher.mjs) taking every
// event, whose plain secret it writes into that secrets file (where the catcher reads it; kept across starts).
// Usage: node scripts/seed.ts [--persist-to <dir>] [--smtp-port 1025] [--sms-port 8026] [--dns-zone .local/dns.json]
//        [--webhook-port 8029 --webhook-secrets .local/webhooks.json]
// (Node 22 runs this file directly, stripping the types)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hashPassword } from '../src/lib/password.ts';
import { EXAMPLE_CHANNELS, exampleChannelsSql } from '../src/modules/integration/seed-example.ts';
import { exampleDomainSeed } from '../src/modules/domain/seed-example.ts';
import { exampleWebhookSql, exampleWebhookUrl } from '../src/modules/webhook/seed-example.ts';
import { EXAMPLE_AUDIENCE, exampleAudienceSql } from '../src/modules/contact/seed-example.ts';
import { EXAMPLE_FORM, exampleFormSql } from '../src/modules/form/seed-example.ts';
import { BIN, localEnv, ROOT } from './lib/run.mjs';
import { SEED_ORG, SEED_USER } from './lib/seed-data.mjs';

const NOW = `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

/** A SQL string literal. */
function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The upserts for the organisation and the user, as one script. */
export function seedSql(passwordHash: string): string {
  const org = SEED_ORG;
  const user = SEED_USER;
  return [
    `INSERT INTO organizations (name, domain) VALUES (${sqlText(org.name)}, ${sqlText(org.domain)})`,
    `  ON CONFLICT(domain) DO UPDATE SET name = excluded.name, updated_at = ${NOW};`,
    `INSERT INTO users (org_id, name, username, email, password_hash)`,
    `  SELECT id, ${sqlText(user.name)}, ${sqlText(user.username)}, ${sqlText(user.email)}, ${sqlText(passwordHash)}`,
    `  FROM organizations WHERE domain = ${sqlText(org.domain)}`,
    `  ON CONFLICT(org_id, username) DO UPDATE SET name = excluded.name, email = excluded.email,`,
    `    password_hash = excluded.password_hash, updated_at = ${NOW};`,
  ].join('\n');
}

export interface SeedOptions {
  persistTo?: string;
  /** The worker's SECRETS_KEY; without it no example channels are seeded. */
  secretsKey?: string;
  smtpPort?: number;
  smsPort?: number;
  /** The local DoH stand-in's zone file: with secretsKey, the seeded sending domain's records are written there. */
  dnsZone?: string;
  /** The local webhook catcher's port: with secretsKey and webhookSecrets, the organisation gets an endpoint on it. */
  webhookPort?: number;
  /** The catcher's secrets file ({ secrets: { <url>: whsec_... } }): the endpoint's secret is written (and kept) there. */
  webhookSecrets?: string;
}

/** The seeded sender's domain (acme.test): the organisation's example sending domain. */
export const EXAMPLE_DOMAIN = EXAMPLE_CHANNELS.emailSender.split('@')[1];

/** A JSON object file's content ({} when there is none yet, or it is not JSON). */
function readJsonObject(file: string): Record<string, unknown> {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    return json && typeof json === 'object' && !Array.isArray(json) ? json : {};
  } catch {
    return {};
  }
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Sets the records of the zone file (keeping whatever else a person put there). */
function writeZone(file: string, records: Record<string, string[][]>): void {
  writeJson(file, { ...readJsonObject(file), ...records });
}

/** The secrets file's map of endpoint URL to secret. */
function secretsIn(file: Record<string, unknown>): Record<string, string> {
  const secrets = file.secrets;
  return secrets && typeof secrets === 'object' ? (secrets as Record<string, string>) : {};
}

/** Sets one endpoint's secret in the webhook catcher's secrets file (keeping the others). */
function writeWebhookSecret(file: string, url: string, secret: string): void {
  const current = readJsonObject(file);
  writeJson(file, { ...current, secrets: { ...secretsIn(current), [url]: secret } });
}

/** Writes the seed into the local D1 database (wrangler's default state, or `persistTo`). */
export async function seed({ persistTo, secretsKey, smtpPort, smsPort, dnsZone, webhookPort, webhookSecrets }: SeedOptions = {}): Promise<void> {
  let sql = `${seedSql(await hashPassword(SEED_USER.password))}\n${exampleAudienceSql(SEED_ORG.domain)}`;
  if (secretsKey) sql += `\n${(await exampleChannelsSql({ org: { domain: SEED_ORG.domain }, secretsKey, smtpPort, smsPort })).sql}`;
  const domain = secretsKey && dnsZone ? await exampleDomainSeed({ orgDomain: SEED_ORG.domain, domain: EXAMPLE_DOMAIN, secretsKey }) : null;
  if (domain) sql += `\n${domain.sql}`;
  // The endpoint keeps the secret an earlier start wrote for its URL, so a receiver set up with it keeps verifying.
  const known = webhookSecrets ? secretsIn(readJsonObject(webhookSecrets)) : {};
  const webhook =
    secretsKey && webhookPort && webhookSecrets
      ? await exampleWebhookSql({ orgDomain: SEED_ORG.domain, secretsKey, port: webhookPort, secret: known[exampleWebhookUrl(webhookPort)] })
      : null;
  if (webhook) sql += `\n${webhook.sql}`;
  // Last: the form offers the seeded subscriptions and mails from the seeded sender.
  sql += `\n${exampleFormSql({ orgDomain: SEED_ORG.domain, emailSender: EXAMPLE_CHANNELS.emailSender })}`;
  const args = ['d1', 'execute', 'DB', '--local', '--command', sql];
  if (persistTo) args.push('--persist-to', persistTo);
  const result = spawnSync(path.join(BIN, 'wrangler'), args, {
    cwd: ROOT,
    env: localEnv({ CI: 'true', WRANGLER_SEND_METRICS: 'false' }),
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    throw new Error(`Seeding local D1 failed (wrangler d1 execute exit code ${result.status})`);
  }
  if (domain && dnsZone) writeZone(dnsZone, domain.zone);
  if (webhook && webhookSecrets) writeWebhookSecret(webhookSecrets, webhook.url, webhook.secret);
}

if (import.meta.filename === process.argv[1] || process.argv[1]?.endsWith('scripts/seed.ts')) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const port = (name: string) => (arg(name) ? Number(arg(name)) : undefined);
  const secretsKey = process.env.SEED_SECRETS_KEY || undefined;
  const file = (name: string) => (arg(name) ? path.resolve(arg(name)!) : undefined);
  const dnsZone = file('--dns-zone');
  const webhookSecrets = file('--webhook-secrets');
  const webhookPort = port('--webhook-port');
  seed({ persistTo: arg('--persist-to'), secretsKey, smtpPort: port('--smtp-port'), smsPort: port('--sms-port'), dnsZone, webhookPort, webhookSecrets }).then(
    () => {
      console.log(`Seeded organisation '${SEED_ORG.domain}' (${SEED_ORG.name}) with user ${SEED_USER.name}`);
      console.log(`  login:    ${SEED_USER.username}`);
      console.log(`  password: ${SEED_USER.password}`);
      if (secretsKey) console.log('  channels: local SMTP and SMS integrations, senders hello@acme.test and +15005550006');
      if (secretsKey && dnsZone) console.log(`  domain:   ${EXAMPLE_DOMAIN}, its records in ${dnsZone}`);
      if (secretsKey && webhookPort && webhookSecrets) console.log(`  webhook:  an endpoint on the local webhook catcher, its secret in ${webhookSecrets}`);
      console.log(`  form:     '${EXAMPLE_FORM.name}' (double opt-in), in the console under Forms`);
      console.log(
        `  audience: subscription '${EXAMPLE_AUDIENCE.subscription}', ${EXAMPLE_AUDIENCE.contacts.length} contacts tagged '${EXAMPLE_AUDIENCE.tag}', ${EXAMPLE_AUDIENCE.templates.length} example templates`,
      );
    },
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
