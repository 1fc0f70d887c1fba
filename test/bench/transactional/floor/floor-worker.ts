import { DurableObject } from 'cloudflare:workers';
import { Hono } from 'hono';

// The baseline of bench:transactional: what the runtime costs a send before any of Relay's own work. POST
// /api/v1/send makes the platform calls a real send makes (src/modules/transactional/routes.ts), each as small as
// it can be: one D1 batch of six reads by primary key (the references), a ledger call that takes a token from a
// bucket row (the admission), a ledger call that inserts the message in a transaction (the accept), one queue send;
// its consumer acks. No key check, no validation, no rendering, and no delivery: the floor is above what a real send
// can reach on the same runtime.

interface Env {
  DB: D1Database;
  LEDGER: DurableObjectNamespace<FloorLedger>;
  QUEUE: Queue<{ ids: number[] }>;
}

export class FloorLedger extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, body TEXT NOT NULL, created_at TEXT NOT NULL)`);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS buckets (key TEXT PRIMARY KEY, level REAL NOT NULL, at INTEGER NOT NULL)`);
  }

  admit(key: string, now: number): boolean {
    const sql = this.ctx.storage.sql;
    const level = sql.exec<{ level: number }>('SELECT level FROM buckets WHERE key = ?', key).toArray()[0]?.level ?? 0;
    sql.exec(
      'INSERT INTO buckets (key, level, at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET level = excluded.level, at = excluded.at',
      key,
      level + 1,
      now,
    );
    return true;
  }

  accept(body: string): number {
    const sql = this.ctx.storage.sql;
    return this.ctx.storage.transactionSync(() =>
      Number(sql.exec<{ id: number }>('INSERT INTO messages (body, created_at) VALUES (?, ?) RETURNING id', body, new Date().toISOString()).one().id),
    );
  }
}

const REFERENCE_READS = 6;

const app = new Hono<{ Bindings: Env }>()
  .get('/health', (c) => c.text('ok'))
  .post('/setup', async (c) => {
    await c.env.DB.batch([
      c.env.DB.prepare('CREATE TABLE IF NOT EXISTS refs (id INTEGER PRIMARY KEY, org_id INTEGER NOT NULL, value TEXT NOT NULL)'),
      c.env.DB.prepare(
        `INSERT OR IGNORE INTO refs (id, org_id, value) VALUES ${Array.from({ length: REFERENCE_READS }, (_, k) => `(${k + 1}, 1, 'reference ${k + 1}')`).join(', ')}`,
      ),
    ]);
    return c.text('ok');
  })
  .post('/api/v1/send', async (c) => {
    const body = await c.req.text();
    JSON.parse(body);
    const key = c.req.header('authorization') ?? '';
    const read = c.env.DB.prepare('SELECT id, value FROM refs WHERE id = ? AND org_id = 1');
    await c.env.DB.batch(Array.from({ length: REFERENCE_READS }, (_, k) => read.bind(k + 1)));
    const ledger = c.env.LEDGER.get(c.env.LEDGER.idFromName('acme'));
    await ledger.admit(key, Date.now());
    const id = await ledger.accept(body);
    await c.env.QUEUE.send({ ids: [id] });
    return c.json({ data: { id } }, 202);
  });

export default {
  fetch: app.fetch,
  async queue(batch) {
    batch.ackAll();
  },
} satisfies ExportedHandler<Env, { ids: number[] }>;
