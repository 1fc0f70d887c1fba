// A local stand-in for the Cloudflare API (api.cloudflare.com/client/v4) for the deploy tests: wrangler talks to it
// when CLOUDFLARE_API_BASE_URL points here. It keeps one account's state (D1 databases and their applied migrations,
// R2 buckets, queues and consumers, workers with their secrets, routes and crons), answers in Cloudflare's envelope
// ({ success, errors, messages, result }), and records every call (method, path, query, body) for the tests to read.
// A call can be made to fail once, to cut a deploy off half-way.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const ACCOUNT_ID = '0123456789abcdef0123456789abcdef';

export interface RecordedCall {
  method: string;
  /** Below /client/v4, with the account's id written {account}. */
  path: string;
  query: Record<string, string>;
  /** Parsed JSON, a multipart body's parts by name, or null. */
  body: unknown;
}

interface Queue {
  queue_id: string;
  queue_name: string;
  consumers: { consumer_id: string; script_name: string; dead_letter_queue?: string }[];
}

export interface CloudflareState {
  databases: { uuid: string; name: string; migrations: string[] }[];
  buckets: string[];
  queues: Queue[];
  workers: Record<string, { secrets: string[]; uploads: number; routes: unknown; crons: unknown; migrationTag: string | null }>;
  /** The zone's DNS records (the zone is the one any name asks for). */
  dnsRecords: { id: string; type: string; name: string; content: string; proxied: boolean }[];
}

const envelope = (result: unknown, extra: Record<string, unknown> = {}) => ({ success: true, errors: [], messages: [], result, ...extra });
const failure = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [], result: null });
const now = () => new Date().toISOString();
let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++serial).padStart(12, '0')}`;

function parseBody(contentType: string, raw: string): unknown {
  if (!raw) return null;
  if (contentType.startsWith('multipart/form-data')) {
    // The parts by name; the metadata part parsed (the worker's bindings, migrations, ...).
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1] ?? '';
    const parts: Record<string, unknown> = {};
    for (const part of raw.split(`--${boundary}`)) {
      const name = /name="([^"]+)"/.exec(part)?.[1];
      if (!name) continue;
      const value = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
      parts[name] = name === 'metadata' ? JSON.parse(value) : `${value.length} bytes`;
    }
    return parts;
  }
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export async function startCloudflareApi() {
  const state: CloudflareState = { databases: [], buckets: [], queues: [], workers: {}, dnsRecords: [] };
  const calls: RecordedCall[] = [];
  const failures: { method: string; path: RegExp }[] = [];

  const worker = (name: string) => (state.workers[name] ??= { secrets: [], uploads: 0, routes: null, crons: null, migrationTag: null });

  function route(method: string, path: string, query: URLSearchParams, body: unknown): [number, unknown] {
    const b = (body ?? {}) as Record<string, unknown>;
    let m: RegExpExecArray | null;
    if (path === '/memberships') return [200, envelope([{ id: 'm1', account: { id: ACCOUNT_ID, name: 'Relay test account' }, status: 'accepted' }])];
    if (path === '/accounts') return [200, envelope([{ id: ACCOUNT_ID, name: 'Relay test account' }])];
    if (path === '/zones') {
      const name = query.get('name');
      return [200, envelope(name ? [{ id: 'zone1', name }] : [], { result_info: { page: 1, per_page: 50, count: name ? 1 : 0, total_count: name ? 1 : 0 } })];
    }
    if ((m = /^\/zones\/[^/]+\/workers\/routes$/.exec(path))) return [200, envelope([])];
    if (path === '/zones/zone1/dns_records' && method === 'GET') {
      const name = query.get('name');
      return [200, envelope(state.dnsRecords.filter((r) => !name || r.name === name))];
    }
    if (path === '/zones/zone1/dns_records' && method === 'POST') {
      const record = { id: uuid(), type: String(b.type), name: String(b.name), content: String(b.content), proxied: Boolean(b.proxied) };
      state.dnsRecords.push(record);
      return [200, envelope(record)];
    }
    const a = '/accounts/{account}';
    // D1
    if (path === `${a}/d1/database` && method === 'GET') {
      const page = Number(query.get('page') ?? 1);
      const perPage = Number(query.get('per_page') ?? 10);
      const rows = state.databases
        .slice((page - 1) * perPage, page * perPage)
        .map(({ uuid, name }) => ({ uuid, name, created_at: now(), version: 'production' }));
      return [200, envelope(rows, { result_info: { page, per_page: perPage, count: rows.length, total_count: state.databases.length } })];
    }
    if (path === `${a}/d1/database` && method === 'POST') {
      const db = { uuid: uuid(), name: String(b.name), migrations: [] };
      state.databases.push(db);
      return [200, envelope({ uuid: db.uuid, name: db.name, created_at: now(), version: 'production' })];
    }
    if ((m = new RegExp(`^${a.replace(/[{}]/g, '\\$&')}/d1/database/([^/]+)(/query)?$`).exec(path))) {
      const db = state.databases.find((d) => d.uuid === m![1] || d.name === m![1]);
      if (!db) return [404, failure(7404, 'The database could not be found')];
      if (!m[2]) return [200, envelope({ uuid: db.uuid, name: db.name, created_at: now(), version: 'production', num_tables: 0, file_size: 0 })];
      const sql = String(b.sql ?? '');
      const meta = { duration: 0.1, changes: 0, last_row_id: 0, changed_db: false, size_after: 8192, rows_read: 0, rows_written: 0 };
      if (/SELECT\s+\*\s+FROM\s+"?d1_migrations"?/i.test(sql)) {
        return [200, envelope([{ results: db.migrations.map((name, i) => ({ id: i + 1, name, applied_at: now() })), success: true, meta }])];
      }
      for (const [, name] of sql.matchAll(/INSERT INTO "?d1_migrations"?\s*\(name\)\s*values\s*\('([^']+)'\)/gi)) db.migrations.push(name);
      return [200, envelope([{ results: [], success: true, meta }])];
    }
    // R2
    if (path === `${a}/r2/buckets` && method === 'GET') return [200, envelope({ buckets: state.buckets.map((name) => ({ name, creation_date: now() })) })];
    if (path === `${a}/r2/buckets` && method === 'POST') {
      state.buckets.push(String(b.name));
      return [200, envelope({ name: b.name, creation_date: now() })];
    }
    if ((m = /^\/accounts\/\{account\}\/r2\/buckets\/([^/]+)$/.exec(path))) {
      return state.buckets.includes(m[1])
        ? [200, envelope({ name: m[1], creation_date: now() })]
        : [404, failure(10006, 'The specified bucket does not exist.')];
    }
    // Queues
    const queueRow = (q: Queue) => ({
      queue_id: q.queue_id,
      queue_name: q.queue_name,
      created_on: now(),
      modified_on: now(),
      producers_total_count: 0,
      consumers_total_count: q.consumers.length,
      consumers: q.consumers.map((c) => ({ ...c, type: 'worker', settings: {} })),
      producers: [],
    });
    if (path === `${a}/queues` && method === 'GET') {
      // Wrangler asks for several at once (name=a&name=b).
      const names = query.getAll('name');
      const rows = state.queues.filter((q) => names.length === 0 || names.includes(q.queue_name)).map(queueRow);
      return [200, envelope(rows, { result_info: { page: 1, per_page: 100, count: rows.length, total_count: rows.length, total_pages: 1 } })];
    }
    if (path === `${a}/queues` && method === 'POST') {
      if (state.queues.some((q) => q.queue_name === b.queue_name)) return [409, failure(11009, 'A queue with this name already exists')];
      const q: Queue = { queue_id: uuid().replaceAll('-', ''), queue_name: String(b.queue_name), consumers: [] };
      state.queues.push(q);
      return [200, envelope(queueRow(q))];
    }
    if ((m = /^\/accounts\/\{account\}\/queues\/([^/]+)\/consumers(?:\/([^/]+))?$/.exec(path))) {
      const q = state.queues.find((x) => x.queue_id === m![1]);
      if (!q) return [404, failure(11000, 'Queue not found')];
      if (b.dead_letter_queue && !state.queues.some((x) => x.queue_name === b.dead_letter_queue))
        return [400, failure(11002, 'The dead letter queue does not exist')];
      const consumer = { consumer_id: m[2] ?? uuid(), script_name: String(b.script_name), dead_letter_queue: b.dead_letter_queue as string | undefined };
      q.consumers = [...q.consumers.filter((c) => c.consumer_id !== consumer.consumer_id), consumer];
      return [200, envelope({ ...consumer, type: 'worker', settings: b.settings ?? {} })];
    }
    // Workers
    if ((m = /^\/accounts\/\{account\}\/workers\/(?:services|scripts|workers)\/([^/]+)(\/.*)?$/.exec(path))) {
      const [, name, rest = ''] = m;
      const exists = Boolean(state.workers[name]?.uploads);
      if (path.includes('/workers/services/') && rest === '') {
        if (!exists) return [404, failure(10007, 'This Worker does not exist on your account.')];
        return [200, envelope({ id: name, default_environment: { environment: 'production', script: { migration_tag: worker(name).migrationTag } } })];
      }
      if (rest === '/secrets' && method === 'GET')
        return exists || state.workers[name]
          ? [200, envelope(worker(name).secrets.map((s) => ({ name: s, type: 'secret_text' })))]
          : [404, failure(10007, 'This Worker does not exist on your account.')];
      if (rest === '/secrets-bulk' || (rest === '/secrets' && method === 'PUT')) {
        if (!exists) return [404, failure(10007, 'This Worker does not exist on your account.')];
        const given = rest === '/secrets' ? [String(b.name)] : Object.keys((b.secrets ?? {}) as object);
        worker(name).secrets = [...new Set([...worker(name).secrets, ...given])];
        return [200, envelope(given.map((s) => ({ name: s, type: 'secret_text' })))];
      }
      if (rest === '' && method === 'PUT') {
        const w = worker(name);
        w.uploads++;
        const metadata = (b as { metadata?: { migrations?: { new_tag?: string } } }).metadata;
        if (metadata?.migrations?.new_tag) w.migrationTag = metadata.migrations.new_tag;
        return [
          200,
          envelope({ id: name, etag: 'e', deployment_id: uuid(), handlers: ['fetch', 'queue', 'scheduled', 'email'], created_on: now(), modified_on: now() }),
        ];
      }
      if (rest === '/assets-upload-session') return [200, envelope({ jwt: 'assets-complete', buckets: [] })];
      if (rest === '/routes') {
        worker(name).routes = body;
        return [200, envelope(body)];
      }
      if (rest === '/schedules') {
        worker(name).crons = body;
        return [200, envelope({ schedules: body })];
      }
      if (rest === '/subdomain') return [200, envelope({ enabled: false, previews_enabled: false })];
      if (path.includes('/workers/workers/')) return [200, envelope({ id: name, name, subdomain: { enabled: false, previews_enabled: false } })];
      if (rest === '/settings') return [200, envelope({ bindings: [], logpush: false, observability: { enabled: true } })];
      if (rest === '/deployments') return [200, envelope({ deployments: [] })];
      if (rest === '/versions') return [200, envelope({ items: [] })];
    }
    if (path === `${a}/workers/subdomain`) return [200, envelope({ subdomain: 'relay-test' })];
    return [404, failure(7003, `No route for the URI (stand-in): ${method} ${path}`)];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname.replace(/^\/client\/v4/, '').replace(`/accounts/${ACCOUNT_ID}`, '/accounts/{account}');
      const body = parseBody(String(req.headers['content-type'] ?? ''), Buffer.concat(chunks).toString('utf8'));
      calls.push({ method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams), body });
      const fail = failures.findIndex((f) => f.method === req.method && f.path.test(path));
      let status: number;
      let answer: unknown;
      if (fail >= 0) {
        failures.splice(fail, 1);
        [status, answer] = [500, failure(10013, 'An unknown error has occurred (stand-in: failed on purpose)')];
      } else {
        [status, answer] = route(req.method ?? 'GET', path, url.searchParams, body);
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/client/v4`,
    state,
    calls,
    /** Makes the next `method` call to a path matching `path` fail with a 500. */
    failOnce(method: string, path: RegExp) {
      failures.push({ method, path });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
