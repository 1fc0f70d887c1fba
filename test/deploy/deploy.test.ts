// `npm run deploy` against a local stand-in for the Cloudflare API (test/support/cloudflare-api.ts): wrangler itself
// makes every call (CLOUDFLARE_API_BASE_URL points it at the stand-in), the stand-in keeps the account's state and
// records the calls. On an empty account each resource is created once; run again nothing is created; with one queue
// gone only that queue is; a run cut off half-way leaves a state the next run completes. The calls are checked
// against Cloudflare's published OpenAPI description (test/data/cloudflare-openapi, taken from cloudflare/api-schemas).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ID, type RecordedCall, startCloudflareApi } from '../support/cloudflare-api';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ENV = `test-${Date.now().toString(36)}`;
const NAMES = {
  database: `relay-${ENV}`,
  bucket: `relay-${ENV}-files`,
  queues: ['send', 'transactional', 'import', 'events', 'webhooks'].flatMap((role) => [`relay-${ENV}-${role}`, `relay-${ENV}-${role}-dlq`]),
};

type Api = Awaited<ReturnType<typeof startCloudflareApi>>;
let api: Api;
const home = mkdtempSync(path.join(os.tmpdir(), 'relay-deploy-home-'));

async function deploy(...args: string[]): Promise<{ code: number; out: string; calls: RecordedCall[] }> {
  const from = api.calls.length;
  const env = {
    ...process.env,
    // No login of the machine's user: only the token, the account and the stand-in.
    HOME: home,
    CLOUDFLARE_API_TOKEN: 'test-token',
    CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID,
    CLOUDFLARE_API_BASE_URL: api.baseUrl,
    SYSTEM_SMTP_URL: 'smtps://relay:secret@smtp.example.com:465',
  };
  const done = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/deploy.mjs'), '--env', ENV, ...args], {
    cwd: ROOT,
    env,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
  );
  return { ...done, calls: api.calls.slice(from) };
}

/** The calls that create or change something on the account (reads and D1's migration bookkeeping left out). */
const writes = (calls: RecordedCall[]) =>
  calls.filter((c) => c.method !== 'GET' && !(c.path.endsWith('/query') && /d1_migrations"?\s*\(|SELECT/.test(String((c.body as { sql?: string })?.sql))));
const created = (calls: RecordedCall[], suffix: string) =>
  calls.filter((c) => c.method === 'POST' && c.path === `/accounts/{account}${suffix}`).map((c) => c.body as Record<string, string>);

beforeAll(async () => {
  api = await startCloudflareApi();
});

afterAll(async () => {
  await api?.close();
  rmSync(path.join(ROOT, `wrangler.${ENV}.generated.toml`), { force: true });
  rmSync(path.join(ROOT, '.deploy', `${ENV}.json`), { force: true });
  rmSync(home, { recursive: true, force: true });
});

describe('npm run deploy (against a stand-in for the Cloudflare API)', () => {
  it('prints the plan without an account and changes nothing (--dry-run on a fresh machine)', async () => {
    const { code, out } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/deploy.mjs'), '--dry-run', '--env', ENV], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: home },
    }).then(
      (r) => ({ code: 0, out: r.stdout }),
      (e: { code?: number; stdout?: string }) => ({ code: e.code ?? -1, out: e.stdout ?? '' }),
    );
    expect(code, out).toBe(0);
    expect(out).toContain(`D1 database ${NAMES.database}: created if missing (dry run without an account: not checked)`);
    for (const queue of NAMES.queues) expect(out).toContain(`queue ${queue}`);
    expect(out).toContain('needs the public URL: pass --public-url');
    expect(out).toContain('Dry run: nothing was changed.');
    expect(existsSync(path.join(ROOT, `wrangler.${ENV}.generated.toml`))).toBe(false);
  });

  it('creates each resource once on an empty account, applies the migrations, sets the secrets and deploys', async () => {
    const plan = await deploy('--dry-run', '--public-url', 'https://relay.example.com');
    expect(plan.code, plan.out).toBe(0);
    expect(writes(plan.calls)).toEqual([]);
    expect(plan.out).toContain(`D1 database ${NAMES.database}: would be created`);

    const first = await deploy('--public-url', 'https://relay.example.com');
    expect(first.code, first.out).toBe(0);
    expect(created(first.calls, '/d1/database')).toEqual([{ name: NAMES.database }]);
    expect(created(first.calls, '/r2/buckets')).toEqual([{ name: NAMES.bucket }]);
    expect(created(first.calls, '/queues').map((b) => b.queue_name)).toEqual(NAMES.queues);
    const migrations = readFileSync(path.join(ROOT, 'migrations/meta/_journal.json'), 'utf8').match(/"tag": "[^"]+"/g)!.length;
    expect(api.state.databases[0].migrations).toHaveLength(migrations);
    const secrets = first.calls
      .filter((c) => c.method === 'PATCH' && c.path.endsWith('/secrets-bulk'))
      .map((c) => Object.keys((c.body as { secrets: object }).secrets));
    expect(secrets.at(-1)?.sort()).toEqual(['JWT_SECRET', 'OPERATOR_TOKEN', 'SECRETS_KEY', 'SYSTEM_SMTP_URL']);
    const upload = first.calls.find(
      (c) =>
        c.method === 'PUT' &&
        c.path === `/accounts/{account}/workers/scripts/relay-${ENV}` &&
        (c.body as { metadata?: { main_module?: string } }).metadata?.main_module === 'index.js',
    );
    const metadata = (upload!.body as { metadata: { bindings: { name: string; type: string; id?: string; text?: string }[]; migrations?: unknown } }).metadata;
    expect(metadata.bindings.find((b) => b.name === 'DB')).toMatchObject({ type: 'd1', id: api.state.databases[0].uuid });
    expect(metadata.bindings.find((b) => b.name === 'PUBLIC_URL')).toMatchObject({ text: 'https://relay.example.com' });
    expect(first.calls.find((c) => c.path.endsWith('/routes') && c.method === 'PUT')?.body).toEqual([
      { pattern: 'relay.example.com/*', zone_name: 'example.com' },
      { pattern: '*.relay.example.com/*', zone_name: 'example.com' },
    ]);
    // Each consumer with its dead-letter queue.
    expect(api.state.queues.filter((q) => q.consumers.length).map((q) => [q.queue_name, q.consumers[0].dead_letter_queue ?? null])).toEqual([
      [`relay-${ENV}-send`, `relay-${ENV}-send-dlq`],
      [`relay-${ENV}-send-dlq`, null],
      [`relay-${ENV}-transactional`, `relay-${ENV}-transactional-dlq`],
      [`relay-${ENV}-transactional-dlq`, null],
      [`relay-${ENV}-import`, `relay-${ENV}-import-dlq`],
      [`relay-${ENV}-import-dlq`, null],
      [`relay-${ENV}-events`, `relay-${ENV}-events-dlq`],
      [`relay-${ENV}-events-dlq`, null],
      [`relay-${ENV}-webhooks`, `relay-${ENV}-webhooks-dlq`],
      [`relay-${ENV}-webhooks-dlq`, null],
    ]);
    expect(readFileSync(path.join(ROOT, `wrangler.${ENV}.generated.toml`), 'utf8')).toContain(`database_id = "${api.state.databases[0].uuid}"`);
    // The proxied records the routes need: the host and its wildcard.
    expect(api.state.dnsRecords.map((r) => [r.type, r.name, r.content, r.proxied])).toEqual([
      ['AAAA', 'relay.example.com', '100::', true],
      ['AAAA', '*.relay.example.com', '100::', true],
    ]);
  });

  it('changes nothing when run again, and says so', async () => {
    const again = await deploy();
    expect(again.code, again.out).toBe(0);
    expect(writes(again.calls)).toEqual([]);
    expect(again.out).toContain('Nothing changed: everything was already in place.');
  });

  it('creates only the queue that went missing', async () => {
    api.state.queues = api.state.queues.filter((q) => q.queue_name !== `relay-${ENV}-import-dlq`);
    const run = await deploy();
    expect(run.code, run.out).toBe(0);
    expect(created(run.calls, '/queues')).toEqual([{ queue_name: `relay-${ENV}-import-dlq` }]);
    expect(created(run.calls, '/d1/database')).toEqual([]);
    expect(created(run.calls, '/r2/buckets')).toEqual([]);
    expect(run.out).toContain(`created  queue relay-${ENV}-import-dlq`);
  });

  it('finishes on the next run what a run cut off half-way left undone', async () => {
    const fresh = `${ENV}b`;
    // A second environment on the same account: its events queue fails to be made once.
    api.failOnce('POST', /\/queues$/);
    const cut = await promisify(execFile)(
      process.execPath,
      [path.join(ROOT, 'scripts/deploy.mjs'), '--env', fresh, '--public-url', 'https://staging.relay.example.com'],
      {
        cwd: ROOT,
        env: { ...process.env, HOME: home, CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID, CLOUDFLARE_API_BASE_URL: api.baseUrl },
        maxBuffer: 64 * 1024 * 1024,
      },
    ).then(
      () => ({ code: 0, out: '' }),
      (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    try {
      expect(cut.code).not.toBe(0);
      expect(cut.out).toContain('run the same command again to finish');
      const before = api.calls.length;
      const done = await promisify(execFile)(process.execPath, [path.join(ROOT, 'scripts/deploy.mjs'), '--env', fresh], {
        cwd: ROOT,
        env: { ...process.env, HOME: home, CLOUDFLARE_API_TOKEN: 't', CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID, CLOUDFLARE_API_BASE_URL: api.baseUrl },
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(done.stdout).toContain(`worker relay-${fresh}: deployed`);
      const calls = api.calls.slice(before);
      // The database and bucket made before the cut are not made again; each queue exists exactly once.
      expect(created(calls, '/d1/database')).toEqual([]);
      expect(created(calls, '/r2/buckets')).toEqual([]);
      const names = api.state.queues.map((q) => q.queue_name).filter((n) => n.startsWith(`relay-${fresh}-`));
      expect(names.sort()).toEqual(
        ['send', 'transactional', 'import', 'events', 'webhooks'].flatMap((r) => [`relay-${fresh}-${r}`, `relay-${fresh}-${r}-dlq`]).sort(),
      );
    } finally {
      rmSync(path.join(ROOT, `wrangler.${fresh}.generated.toml`), { force: true });
      rmSync(path.join(ROOT, '.deploy', `${fresh}.json`), { force: true });
    }
  });

  it("makes only calls that Cloudflare's published API describes (where the stored description has them)", () => {
    const spec = JSON.parse(readFileSync(path.join(ROOT, 'test/data/cloudflare-openapi/operations.json'), 'utf8')) as {
      operations: Record<
        string,
        { operationId: string; requestBody?: { content?: Record<string, { schema?: { properties?: object; required?: string[]; example?: unknown } }> } }
      >;
      missing: string[];
    };
    // Endpoints wrangler 4.156 calls that the stored description (cloudflare/api-schemas at the commit it names) does not
    // describe: they are listed here, not checked.
    const NOT_IN_STORED_DESCRIPTION = [
      /\/workers\/scripts\/[^/]+\/(secrets|secrets-bulk|routes|subdomain|assets-upload-session|versions)$/,
      /\/workers\/(services|workers)\//,
    ];
    const template = (t: string) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const operations = Object.entries(spec.operations).map(([key, op]) => {
      const [method, p] = key.split(' ');
      return { method, path: template(p), op };
    });
    const checked = new Set<string>();
    for (const call of api.calls) {
      if (NOT_IN_STORED_DESCRIPTION.some((re) => re.test(call.path))) continue;
      const match = operations.find((o) => o.method === call.method && o.path.test(call.path));
      expect(match, `${call.method} ${call.path} is not an operation of the published API`).toBeTruthy();
      checked.add(match!.op.operationId);
      // A JSON body carries the operation's required properties and only properties it describes (its properties, or
      // where the description gives only an example, the example's).
      const schema = match!.op.requestBody?.content?.['application/json']?.schema;
      const example = schema?.example && typeof schema.example === 'object' && !Array.isArray(schema.example) ? schema.example : null;
      const known = schema?.properties ? Object.keys(schema.properties) : example ? Object.keys(example) : null;
      if (known && call.body && typeof call.body === 'object' && !Array.isArray(call.body)) {
        for (const key of schema?.required ?? []) expect(call.body, `${call.method} ${call.path}`).toHaveProperty(key);
        for (const key of Object.keys(call.body)) expect(known, `${call.method} ${call.path}: ${key}`).toContain(key);
      }
    }
    // The resource calls the deploy depends on were among those checked.
    expect([...checked]).toEqual(
      expect.arrayContaining([
        'cloudflare-d1-list-databases',
        'cloudflare-d1-create-database',
        'cloudflare-d1-query-database',
        'r2-list-buckets',
        'r2-create-bucket',
        'worker-script-upload-worker-module',
        'worker-cron-trigger-update-cron-triggers',
        'zones-get',
        'dns-records-for-a-zone-list-dns-records',
        'dns-records-for-a-zone-create-dns-record',
      ]),
    );
  });
});
