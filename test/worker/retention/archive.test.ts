// Message retention on the Workers runtime: the cron's archive moves messages past the organisation's retention
// (with their tracking events) to gzip NDJSON in R2 per month, removes exactly what it wrote and nothing newer,
// leaves everything in D1 when a write fails or the rows change meanwhile, and the console downloads a month.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import { archiveOldMessages, ARCHIVE_CHUNK } from '../../../src/modules/retention/archive';
import { addressDigest } from '../../../src/modules/privacy/address-digest';
import { newOrg, type Org } from '../channel-helpers';
import { call, ledgerOfMessage, ledgerSql } from '../helpers';

const E = env as unknown as Env;
const DAY = 86_400_000;
const daysAgo = (n: number, extraMs = 0) => new Date(Date.now() - n * DAY + extraMs).toISOString();

/** Inserts `n` sent messages created `age` days ago (one second apart), each with one open event; answers their ids. */
async function oldMessages(orgId: number, n: number, age: number, status = 'sent'): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 50) {
    const count = Math.min(50, n - i);
    const rows = await (await ledgerSql(orgId))
      .prepare(
        `INSERT INTO messages (org_id, type, status, from_address, to_address, subject, body, opens_total, created_at, updated_at)
       SELECT ?1, 'email', ?2, 'news@example.com', 'r' || value || '@example.com', 'Hello ' || value, '<p>Body ' || value || '</p>', 1,
         strftime('%Y-%m-%dT%H:%M:%fZ', ?3, '+' || value || ' seconds'), ?3
       FROM json_each(?4) RETURNING id`,
      )
      .bind(orgId, status, daysAgo(age), JSON.stringify(Array.from({ length: count }, (_, k) => i + k)))
      .all<{ id: number }>();
    ids.push(...rows.results.map((r) => r.id));
  }
  await (await ledgerSql(orgId))
    .prepare(
      `INSERT INTO tracking_events (id, org_id, message_id, kind, link_index, class, reason, method, at)
     SELECT 'ev-' || value, ?1, value, 'open', -1, 'human', 'person', 'GET', ?2 FROM json_each(?3)`,
    )
    .bind(orgId, daysAgo(age - 1), JSON.stringify(ids))
    .run();
  return ids;
}

async function gunzipLines(bytes: ArrayBuffer): Promise<any[]> {
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

const remaining = async (orgId: number) =>
  (await (await ledgerSql(orgId)).prepare('SELECT id FROM messages WHERE org_id = ? ORDER BY id').bind(orgId).all<{ id: number }>()).results.map((r) => r.id);
const eventsOf = async (orgId: number) =>
  (await (await ledgerSql(orgId)).prepare('SELECT count(*) AS n FROM tracking_events WHERE org_id = ?').bind(orgId).first<{ n: number }>())!.n;

/** Every archived message of the organisation, read back from R2 through the ledger of chunks. */
async function archivedInR2(orgId: number) {
  const chunks = (await env.DB.prepare('SELECT key FROM message_archives WHERE org_id = ? ORDER BY first_id').bind(orgId).all<{ key: string }>()).results;
  const lines = [];
  for (const { key } of chunks) lines.push(...(await gunzipLines(await (await env.FILES.get(key))!.arrayBuffer())));
  return lines;
}

/** The environment with an R2 bucket that runs `meanwhile` after each object it stores (a change racing the archive). */
function afterEachPut(meanwhile: () => Promise<void>): Env {
  const files = new Proxy(E.FILES, {
    get(target, prop) {
      if (prop === 'put') {
        return async (...args: Parameters<R2Bucket['put']>) => {
          const object = await target.put(...args);
          await meanwhile();
          return object;
        };
      }
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...E, FILES: files } as Env;
}

/** Only this test's organisation is past its retention: the others keep the default (90 days) and are young. */
async function shortRetention(o: Org, days = 30) {
  const res = await o.api('PUT', '/organization', { name: 'Archiving org', message_retention_days: days });
  expect(res.status, res.text).toBe(200);
  expect(res.body.data).toMatchObject({ message_retention_days: days, effective_retention_days: days });
}

describe('message retention', () => {
  it('archives what is past retention with its events, removes exactly that, and keeps newer and unsettled messages', async () => {
    const o = await newOrg('ra');
    await shortRetention(o);
    const old = await oldMessages(o.orgId, ARCHIVE_CHUNK + 20, 40);
    const queued = await oldMessages(o.orgId, 3, 40, 'queued');
    const young = await oldMessages(o.orgId, 5, 10);
    const archived = await archiveOldMessages(createDb(E.DB), E);
    expect(archived).toBe(old.length);
    expect(await remaining(o.orgId)).toEqual([...queued, ...young].sort((a, b) => a - b));
    expect(await eventsOf(o.orgId)).toBe(queued.length + young.length);

    const lines = await archivedInR2(o.orgId);
    expect(lines.map((l) => l.message.id).sort((a, b) => a - b)).toEqual(old);
    expect(lines[0].message).toMatchObject({
      org_id: o.orgId,
      status: 'sent',
      to_address: expect.stringMatching(/@example\.com$/),
      subject: expect.stringMatching(/^Hello/),
    });
    expect(lines.every((l) => l.events.length === 1 && l.events[0].message_id === l.message.id)).toBe(true);
    // The archive index names, for a recipient, exactly the objects holding their mail (by address digest here: no contact).
    const first = lines.find((l) => l.message.id === old[0]).message.to_address;
    const holders = await (await ledgerSql(o.orgId))
      .prepare('SELECT key FROM archive_holders WHERE holder = ?')
      .bind(`a:${await addressDigest(E, o.orgId, first)}`)
      .all<{ key: string }>();
    const holding = (await env.DB.prepare('SELECT key FROM message_archives WHERE org_id = ?').bind(o.orgId).all<{ key: string }>()).results;
    const withFirst = [];
    for (const { key } of holding)
      if ((await gunzipLines(await (await env.FILES.get(key))!.arrayBuffer())).some((l) => l.message.to_address === first)) withFirst.push(key);
    expect(holders.results.map((r) => r.key)).toEqual(withFirst);
    expect(withFirst.length).toBeGreaterThan(0);
    // Counted in file volume, and a second run finds nothing more to do.
    const usage = await env.DB.prepare('SELECT file_bytes FROM org_usage WHERE org_id = ?').bind(o.orgId).first<{ file_bytes: number }>();
    expect(usage!.file_bytes).toBeGreaterThan(0);
    expect(await archiveOldMessages(createDb(E.DB), E)).toBe(0);
  });

  it('removes nothing that was not archived when R2 fails part-way, and finishes on the next run without copies', async () => {
    const o = await newOrg('rb');
    await shortRetention(o);
    const old = await oldMessages(o.orgId, ARCHIVE_CHUNK * 2 + 10, 45);
    let puts = 0;
    const failing = {
      ...E,
      FILES: new Proxy(E.FILES, {
        get(target, prop) {
          if (prop === 'put') return (...args: Parameters<R2Bucket['put']>) => (++puts === 2 ? Promise.reject(new Error('R2 is down')) : target.put(...args));
          const value = Reflect.get(target, prop);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    } as Env;
    await expect(archiveOldMessages(createDb(E.DB), failing)).rejects.toThrow('R2 is down');
    // The first chunk went; everything else is still in D1, and what left is exactly what R2 holds.
    const left = await remaining(o.orgId);
    expect(left).toEqual(old.slice(ARCHIVE_CHUNK));
    expect((await archivedInR2(o.orgId)).map((l) => l.message.id)).toEqual(old.slice(0, ARCHIVE_CHUNK));

    expect(await archiveOldMessages(createDb(E.DB), E)).toBe(old.length - ARCHIVE_CHUNK);
    expect(await remaining(o.orgId)).toEqual([]);
    const ids = (await archivedInR2(o.orgId)).map((l) => l.message.id);
    expect(ids).toEqual(old);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps a chunk whose rows changed while it was written, and drops the object it wrote', async () => {
    const o = await newOrg('rc');
    await shortRetention(o);
    const old = await oldMessages(o.orgId, 4, 50);
    // A late open is counted while the chunk is on its way to R2.
    const racing = afterEachPut(async () => {
      await (await ledgerOfMessage(old[0])).prepare('UPDATE messages SET opens_total = opens_total + 1 WHERE id = ?').bind(old[0]).run();
    });
    expect(await archiveOldMessages(createDb(E.DB), racing)).toBe(0);
    expect(await remaining(o.orgId)).toEqual(old);
    expect((await env.FILES.list({ prefix: `orgs/${o.orgId}/archive/` })).objects).toEqual([]);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM stored_files WHERE org_id = ?').bind(o.orgId).first('n')).toBe(0);
    // Unchanged since, the next run takes it, with the late open in the copy.
    expect(await archiveOldMessages(createDb(E.DB), E)).toBe(4);
    expect((await archivedInR2(o.orgId)).find((l) => l.message.id === old[0]).message.opens_total).toBe(2);
  });

  it('drops a chunk whose recipient was erased while it was written, so the archive never holds the erased address', async () => {
    const o = await newOrg('rf');
    await shortRetention(o);
    const old = await oldMessages(o.orgId, 3, 50);
    const erasing = afterEachPut(async () => {
      await (await ledgerOfMessage(old[1])).prepare("UPDATE messages SET to_address = 'erased' WHERE id = ?").bind(old[1]).run();
    });
    expect(await archiveOldMessages(createDb(E.DB), erasing)).toBe(0);
    expect((await env.FILES.list({ prefix: `orgs/${o.orgId}/archive/` })).objects).toEqual([]);
    expect(await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM archive_holders').first('n')).toBe(0);
    expect(await archiveOldMessages(createDb(E.DB), E)).toBe(3);
    expect((await archivedInR2(o.orgId)).find((l) => l.message.id === old[1]).message.to_address).toBe('erased');
  });

  it('lists the months and downloads one as gzip NDJSON, for its own organisation only', async () => {
    const o = await newOrg('rd');
    const other = await newOrg('re');
    await shortRetention(o);
    const march = await oldMessages(o.orgId, 3, 70);
    const april = await oldMessages(o.orgId, 2, 40);
    await archiveOldMessages(createDb(E.DB), E);
    const overview = await o.api('GET', '/message-archive');
    expect(overview.status).toBe(200);
    expect(overview.body.data.retention_days).toBe(30);
    const months = overview.body.data.months;
    expect(months.map((m: { messages: number }) => m.messages).reduce((a: number, b: number) => a + b, 0)).toBe(5);
    expect(months.every((m: { bytes: number }) => m.bytes > 0)).toBe(true);

    const month = daysAgo(70).slice(0, 7);
    const res = await call(o.org, `/api/v1/message-archive/${month}`, { token: o.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toContain(`messages-${o.org}-${month}.ndjson.gz`);
    const ids = (await gunzipLines(await res.arrayBuffer())).map((l) => l.message.id);
    expect(ids).toEqual(expect.arrayContaining(march));
    expect(ids.some((id) => april.includes(id))).toBe(daysAgo(40).slice(0, 7) === month);

    expect((await call(other.org, `/api/v1/message-archive/${month}`, { token: other.token })).status).toBe(404);
    expect((await other.api('GET', '/message-archive')).body.data.months).toEqual([]);
    expect((await call(o.org, '/api/v1/message-archive/2026-13', { token: o.token })).status).toBe(404);
    expect((await call(o.org, `/api/v1/message-archive/${month}`)).status).toBe(401);
  });

  it('takes the retention as a whole number of days in range, or null for the platform default', async () => {
    const o = await newOrg('rf');
    // One rule, one sentence, below the range as above it.
    for (const bad of [4000, 12.5, '30', 3, 0, -1]) {
      const res = await o.api('PUT', '/organization', { name: 'X', message_retention_days: bad });
      expect(res.status).toBe(422);
      expect(res.body.error.fields.message_retention_days).toEqual(['Must be a whole number of days from 7 to 3650']);
    }
    const back = await o.api('PUT', '/organization', { name: 'X', message_retention_days: null });
    expect(back.body.data).toMatchObject({ message_retention_days: null, effective_retention_days: 90 });
  });
});
