import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { ledgers, organizations } from '../../db/schema';
import { registeredLedgerDb } from '../ledger/registry';
import type { Env } from '../../env';
import { orgFilesPrefix } from '../../lib/r2-prefix';
import { rawBatch } from '../crud/raw-batch';
import { deleteOrgFiles, putOrgFile } from '../files/stored-files';
import { effectiveRetentionDays } from './policy';
import { chunkHolders } from './archive-index';

// Message retention (cron): messages older than the organisation's retention leave its ledger (src/modules/ledger)
// for R2, a chunk at a time. A chunk is up to ARCHIVE_CHUNK messages of one month with their tracking events, as
// gzip NDJSON (one line per message: {"message": {...}, "events": [...]}) at
// orgs/{org}/archive/messages/{YYYY-MM}/{first}-{last}.ndjson.gz. Order, so nothing is lost: the object is written
// first, then the chunk is recorded in D1, then one ledger transaction deletes the rows, only if they are still
// exactly what was written (else the record and the object go and the rows wait for the next run). The same
// selection makes the same key, so a run cut off part-way overwrites its object and record the next time rather
// than adding a copy. Broadcast totals, link clicks and the daily counters live in their own rows and stay whole.
// The same ledger transaction writes the archive index (archive-index.ts): who has mail in the object. A chunk whose
// rows an erasure changed while it was being written (their address is part of "unchanged") is dropped, and the next
// run archives the erased rows instead.

/** Messages per chunk: one R2 object, one short D1 transaction. */
export const ARCHIVE_CHUNK = 500;
/** Chunks one cron run writes at most (15 minutes apart: up to 20,000 messages a run). */
export const ARCHIVE_CHUNKS_PER_RUN = 40;
/** Only messages whose fate is settled: anything queued or sending waits. */
const SETTLED = sql`status IN ('sent', 'failed', 'skipped')`;
const DAY_MS = 86_400_000;

export const archiveFolder = (orgId: number, month: string) => `${orgFilesPrefix(orgId)}archive/messages/${month}/`;

type Row = Record<string, unknown> & { id: number; created_at: string; contact_id: number | null; to_address: string };
type EventRow = Record<string, unknown> & { message_id: number };

function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** What must still hold for a chunk's rows to be deleted: the same rows with the same state and events. */
function unchanged(orgId: number, rows: Row[], events: number) {
  const state = JSON.stringify(rows.map((r) => ({ i: r.id, s: r.status, o: r.opens_total, c: r.clicks_total, d: r.delivery_status, a: r.to_address })));
  const ids = JSON.stringify(rows.map((r) => r.id));
  return sql`(SELECT count(*) FROM json_each(${state}) j CROSS JOIN messages m ON m.id = j.value ->> 'i'
      WHERE m.org_id = ${orgId} AND m.status = j.value ->> 's' AND m.opens_total = j.value ->> 'o' AND m.clicks_total = j.value ->> 'c'
        AND m.delivery_status IS j.value ->> 'd' AND m.to_address = j.value ->> 'a') = ${rows.length}
    AND (SELECT count(*) FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids}))) = ${events}`;
}

/** Writes one month's chunk and removes its rows; answers how many messages left the ledger (0 when they changed meanwhile). */
async function archiveChunk(
  db: Database,
  ledger: Database,
  env: Pick<Env, 'FILES' | 'SECRETS_KEY'>,
  orgId: number,
  month: string,
  rows: Row[],
): Promise<number> {
  const ids = JSON.stringify(rows.map((r) => r.id));
  const events = await ledger.all<EventRow>(
    sql`SELECT * FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids})) ORDER BY at, id`,
  );
  const byMessage = groupBy(events, (e) => e.message_id);
  const lines = `${rows.map((message) => JSON.stringify({ message, events: byMessage.get(message.id) ?? [] })).join('\n')}\n`;
  const key = `${archiveFolder(orgId, month)}${rows[0].id}-${rows[rows.length - 1].id}.ndjson.gz`;
  await putOrgFile(env.FILES, db, orgId, 'archive', key, await gzip(lines), { httpMetadata: { contentType: 'application/gzip' } });
  await db.run(sql`INSERT INTO message_archives (key, org_id, month, messages, first_id, last_id)
    VALUES (${key}, ${orgId}, ${month}, ${rows.length}, ${rows[0].id}, ${rows[rows.length - 1].id})
    ON CONFLICT (key) DO UPDATE SET messages = excluded.messages, last_id = excluded.last_id`);
  const holders = JSON.stringify(await chunkHolders(env, orgId, rows));
  const [, removed] = await rawBatch(ledger, [
    ledger.run(sql`INSERT OR IGNORE INTO archive_holders (holder, key) SELECT value, ${key} FROM json_each(${holders})
      WHERE ${unchanged(orgId, rows, events.length)}`),
    ledger.run(sql`DELETE FROM messages WHERE +org_id = ${orgId} AND id IN (SELECT value FROM json_each(${ids})) AND ${unchanged(orgId, rows, events.length)}`),
    // changes() is the messages just deleted: none, nothing more goes.
    ledger.run(sql`DELETE FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids})) AND changes() > 0`),
  ]);
  if (removed.meta.changes > 0) return rows.length;
  await db.run(sql`DELETE FROM message_archives WHERE key = ${key} AND org_id = ${orgId}`);
  await deleteOrgFiles(env.FILES, db, orgId, [key]);
  return 0;
}

/**
 * Archives the messages of every organisation that are past its retention (those with a ledger: the others never
 * sent), at most `maxChunks` chunks; answers how many messages left the ledgers.
 */
export async function archiveOldMessages(
  db: Database,
  env: Pick<Env, 'FILES' | 'MESSAGE_RETENTION_DAYS' | 'LEDGER' | 'SECRETS_KEY'>,
  now = Date.now(),
  maxChunks = ARCHIVE_CHUNKS_PER_RUN,
): Promise<number> {
  const orgs = await db
    .select({ id: organizations.id, days: organizations.messageRetentionDays, ledger: ledgers.name })
    .from(organizations)
    .innerJoin(ledgers, and(eq(ledgers.orgId, organizations.id), eq(ledgers.ready, true)));
  let chunks = 0;
  let archived = 0;
  for (const org of orgs) {
    const ledger = registeredLedgerDb(env, org.ledger, org.id);
    if (!ledger) continue;
    const before = new Date(now - effectiveRetentionDays(env, org.days) * DAY_MS).toISOString();
    while (chunks < maxChunks) {
      const rows = await ledger.all<Row>(sql`SELECT * FROM messages WHERE org_id = ${org.id} AND created_at < ${before} AND ${SETTLED}
        ORDER BY created_at, id LIMIT ${ARCHIVE_CHUNK}`);
      if (rows.length === 0) break;
      const months = groupBy(rows, (r) => r.created_at.slice(0, 7));
      let moved = 0;
      for (const [month, monthRows] of months) {
        if (chunks >= maxChunks) break;
        chunks += 1;
        moved += await archiveChunk(db, ledger, env, org.id, month, monthRows);
      }
      archived += moved;
      if (moved === 0) break; // rows that changed while being written: the next run takes them
    }
  }
  return archived;
}
