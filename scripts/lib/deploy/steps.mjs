// The deploy's steps, in order. Each looks at what exists and does only what is missing, so a second run changes
// nothing (and says so), and a run cut off half-way is completed by the next. A dry run looks without changing
// anything: with an account it says what each step would do; without one (no token, no login) it says what each
// step checks.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../run.mjs';
import { generateConfig, zoneOf } from './config.mjs';
import { ensureDnsRecords } from './dns.mjs';
import { listBuckets, listDatabases, listQueues, listSecrets, wrangler } from './wrangler.mjs';

/** Secrets the deploy makes itself when the worker lacks them (never again: a new SECRETS_KEY would lose data). */
export const GENERATED_SECRETS = {
  JWT_SECRET: () => randomBytes(32).toString('hex'),
  SECRETS_KEY: () => `k1:${randomBytes(32).toString('hex')}`,
  OPERATOR_TOKEN: () => randomBytes(24).toString('hex'),
};

/** Secrets only the person deploying has: taken from the environment when set and the worker lacks them. */
export const GIVEN_SECRETS = [
  'SYSTEM_SMTP_URL',
  'SYSTEM_MAIL_FROM',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'OAUTH_GITHUB_CLIENT_ID',
  'OAUTH_GITHUB_CLIENT_SECRET',
  'OAUTH_GOOGLE_CLIENT_ID',
  'OAUTH_GOOGLE_CLIENT_SECRET',
  'OAUTH_OIDC_ISSUER',
  'OAUTH_OIDC_CLIENT_ID',
  'OAUTH_OIDC_CLIENT_SECRET',
];

/** A dry run without an account: each step says what it would check. */
const offline = (what) => ({ outcome: 'unknown', detail: `${what} (dry run without an account: not checked)` });

export function steps(env, settings, { dryRun, online }) {
  const look = dryRun && !online;
  const existing = { databases: null, buckets: null, queues: null };
  return [
    {
      name: `D1 database ${env.database}`,
      async run(state) {
        if (look) return offline('created if missing');
        existing.databases ??= await listDatabases();
        const found = existing.databases.find((d) => d.name === env.database);
        if (found) {
          state.databaseId = found.uuid;
          return { outcome: 'exists', detail: found.uuid };
        }
        if (dryRun) return { outcome: 'create', detail: 'would be created' };
        await wrangler(['d1', 'create', env.database]);
        const made = (await listDatabases()).find((d) => d.name === env.database);
        if (!made) throw new Error(`wrangler d1 create ${env.database} succeeded but the database is not listed`);
        state.databaseId = made.uuid;
        return { outcome: 'created', detail: made.uuid };
      },
    },
    {
      name: `R2 bucket ${env.bucket}`,
      async run() {
        if (look) return offline('created if missing');
        existing.buckets ??= await listBuckets();
        if (existing.buckets.has(env.bucket)) return { outcome: 'exists' };
        if (dryRun) return { outcome: 'create', detail: 'would be created' };
        await wrangler(['r2', 'bucket', 'create', env.bucket]);
        return { outcome: 'created' };
      },
    },
    ...env.queues.map((queue) => ({
      name: `queue ${queue}`,
      async run() {
        if (look) return offline('created if missing');
        existing.queues ??= await listQueues();
        if (existing.queues.has(queue)) return { outcome: 'exists' };
        if (dryRun) return { outcome: 'create', detail: 'would be created' };
        await wrangler(['queues', 'create', queue]);
        return { outcome: 'created' };
      },
    })),
    {
      name: `config ${path.basename(env.configPath)}`,
      async run(state) {
        if (!settings.publicUrl) {
          if (dryRun) return { outcome: 'unknown', detail: 'needs the public URL: pass --public-url https://relay.example.com (or set PUBLIC_URL)' };
          throw new Error('No public URL: pass --public-url https://relay.example.com (or set PUBLIC_URL) on the first run');
        }
        const text = generateConfig(readFileSync(path.join(ROOT, 'wrangler.toml'), 'utf8'), env, {
          ...settings,
          databaseId: state.databaseId ?? '00000000-0000-4000-8000-000000000000',
        });
        const before = existsSync(env.configPath) ? readFileSync(env.configPath, 'utf8') : null;
        if (before === text) return { outcome: 'exists', detail: 'unchanged' };
        if (dryRun) return { outcome: 'create', detail: before === null ? 'would be written' : 'would be rewritten' };
        await writeFile(env.configPath, text);
        return { outcome: before === null ? 'created' : 'changed', detail: 'written' };
      },
    },
    {
      name: 'D1 migrations',
      async run() {
        if (look || !existsSync(env.configPath)) return offline('applied when pending');
        const listed = await wrangler(['d1', 'migrations', 'list', 'DB', '--remote', '-c', env.configPath]);
        const pending = [...listed.matchAll(/(\d{4}_[\w-]+\.sql)/g)].map((m) => m[1]);
        if (pending.length === 0) return { outcome: 'exists', detail: 'none pending' };
        if (dryRun) return { outcome: 'create', detail: `would apply ${pending.length}: ${[...new Set(pending)].join(', ')}` };
        await wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', '-c', env.configPath]);
        return { outcome: 'created', detail: `applied ${new Set(pending).size}` };
      },
    },
    {
      name: 'secrets',
      async run() {
        if (look || !existsSync(env.configPath)) return offline('generated or taken from the environment when missing');
        const present = await listSecrets(env.configPath);
        const put = {};
        for (const [name, make] of Object.entries(GENERATED_SECRETS)) if (!present.has(name)) put[name] = make();
        for (const name of GIVEN_SECRETS) if (!present.has(name) && process.env[name]) put[name] = process.env[name];
        const missingMail = !present.has('SYSTEM_SMTP_URL') && !put.SYSTEM_SMTP_URL;
        const note = missingMail ? ' (SYSTEM_SMTP_URL is not set: no system mail — password resets, invitations — until it is)' : '';
        const names = Object.keys(put);
        if (names.length === 0) return { outcome: 'exists', detail: `all present${note}` };
        if (dryRun) return { outcome: 'create', detail: `would set ${names.join(', ')}${note}` };
        // On stdin, never in a file: the values leave this process only for wrangler.
        await wrangler(['secret', 'bulk', '-c', env.configPath], { input: JSON.stringify(put) });
        return { outcome: 'created', detail: `set ${names.join(', ')}${note}` };
      },
    },
    {
      name: `worker ${env.worker}`,
      async run(state) {
        if (look || !existsSync(env.configPath)) return offline('deployed when its code, assets or config changed');
        const hash = await deploymentHash(env.configPath);
        if (state.deployedHash === hash) return { outcome: 'exists', detail: 'unchanged since the last deploy' };
        if (dryRun) return { outcome: 'create', detail: 'would be deployed' };
        const out = await wrangler(['deploy', '-c', env.configPath]);
        state.deployedHash = hash;
        const version = /Current Version ID:\s*(\S+)/.exec(out)?.[1];
        return { outcome: 'created', detail: `deployed${version ? ` (version ${version})` : ''}` };
      },
    },
    {
      name: 'DNS records',
      async run() {
        if (!settings.publicUrl) return offline('proxied records for the host and its wildcard, added when missing');
        const host = new URL(settings.publicUrl).hostname;
        const zone = zoneOf(host, settings.zone);
        if (look) return offline(`proxied records for ${host} and *.${host} on ${zone}, added when missing`);
        return ensureDnsRecords({ host, zone, dryRun });
      },
    },
  ];
}

/** What a deploy ships: the bundle wrangler builds, the built console and the config. Same hash, nothing to deploy. */
async function deploymentHash(configPath) {
  const hash = createHash('sha256');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'relay-deploy-'));
  try {
    await wrangler(['deploy', '--dry-run', '--outdir', dir, '-c', configPath]);
    hash.update(await readFile(path.join(dir, 'index.js')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  hash.update(await readFile(configPath));
  const assets = path.join(ROOT, 'dist', 'web');
  const walk = (dir) =>
    readdirSync(dir)
      .sort()
      .flatMap((name) => {
        const full = path.join(dir, name);
        return statSync(full).isDirectory() ? walk(full) : [full];
      });
  if (existsSync(assets)) for (const file of walk(assets)) hash.update(path.relative(assets, file)).update(readFileSync(file));
  return hash.digest('hex');
}

export async function readState(env) {
  try {
    return JSON.parse(await readFile(env.statePath, 'utf8'));
  } catch {
    return {};
  }
}

export async function writeState(env, state) {
  await mkdir(path.dirname(env.statePath), { recursive: true });
  await writeFile(env.statePath, `${JSON.stringify(state, null, 2)}\n`);
}
