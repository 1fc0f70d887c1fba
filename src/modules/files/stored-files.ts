import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { rawBatch, type BatchStatement } from '../crud/raw-batch';
import { usageGauges } from '../stats/daily';

// Every R2 object an organisation keeps goes in and out through here, so its file volume (org_usage.file_bytes)
// moves with each upload and delete, in the same D1 batch as the ledger row (stored_files) that names the object.
// Order: a new object's row is written before the object (bytes 0) and given its size after, so an upload that
// dies half-way is still in the ledger for the cleanup; a deleted object goes from R2 first, then from the ledger.

export type FileKind = 'import' | 'attachment' | 'snapshot' | 'archive';

/** R2 deletes take at most 1,000 keys a call. */
const R2_DELETE_MAX = 1000;

/** Puts the object's ledger row in place (0 bytes) unless it is already there. */
export async function reserveFile(db: Database, orgId: number, kind: FileKind, key: string): Promise<void> {
  await db.run(sql`INSERT INTO stored_files (key, org_id, kind, bytes) VALUES (${key}, ${orgId}, ${kind}, 0) ON CONFLICT (key) DO NOTHING`);
}

/** Sets the bytes of the object at `key` (new or overwritten), moving the organisation's file volume by the difference. */
export async function recordFile(db: Database, orgId: number, kind: FileKind, key: string, bytes: number): Promise<void> {
  await rawBatch(db, [
    // INSERT ... SELECT needs its WHERE before ON CONFLICT (an SQLite parsing rule).
    db.run(sql`INSERT INTO org_usage (org_id, file_bytes)
      SELECT ${orgId}, ${bytes} - coalesce((SELECT bytes FROM stored_files WHERE key = ${key} AND org_id = ${orgId}), 0) WHERE 1
      ON CONFLICT (org_id) DO UPDATE SET file_bytes = max(0, file_bytes + excluded.file_bytes)`),
    db.run(sql`INSERT INTO stored_files (key, org_id, kind, bytes) VALUES (${key}, ${orgId}, ${kind}, ${bytes})
      ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes WHERE org_id = excluded.org_id`),
    usageGauges(db, orgId),
  ]);
}

/** Stores an object of the organisation and counts it. */
export async function putOrgFile(
  bucket: R2Bucket,
  db: Database,
  orgId: number,
  kind: FileKind,
  key: string,
  body: ReadableStream | ArrayBuffer | ArrayBufferView | string | Blob,
  options?: R2PutOptions,
): Promise<R2Object> {
  await reserveFile(db, orgId, kind, key);
  const object = await bucket.put(key, body, options);
  if (!object) throw new Error(`R2 refused to store ${key}`);
  await recordFile(db, orgId, kind, key, object.size);
  return object;
}

/**
 * The statements that take ledger rows matching `where` out of the organisation's file volume, then remove them.
 * `byKey`: `where` names the keys, so the rows are found by the primary key and the organisation is checked on
 * each (unary +); otherwise by the (org_id, ...) index.
 */
function forgetStatements(db: Database, orgId: number, where: SQL, byKey = false): BatchStatement[] {
  const mine = byKey ? sql`+org_id = ${orgId}` : sql`org_id = ${orgId}`;
  return [
    db.run(sql`UPDATE org_usage SET file_bytes = max(0, file_bytes - (SELECT coalesce(sum(bytes), 0) FROM stored_files WHERE ${mine} AND ${where}))
      WHERE org_id = ${orgId}`),
    db.run(sql`DELETE FROM stored_files WHERE ${mine} AND ${where}`),
    usageGauges(db, orgId),
  ];
}

/** Deletes objects of the organisation (from R2, then from the ledger and its file volume). */
export async function deleteOrgFiles(bucket: R2Bucket, db: Database, orgId: number, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  for (let i = 0; i < keys.length; i += R2_DELETE_MAX) await bucket.delete(keys.slice(i, i + R2_DELETE_MAX));
  await rawBatch(db, forgetStatements(db, orgId, sql`key IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`, true));
}

/** Takes the ledger rows under any of `prefixes` out of the file volume (their objects are deleted by the caller). */
export async function forgetFilesUnder(db: Database, orgId: number, prefixes: string[]): Promise<void> {
  if (prefixes.length === 0) return;
  // stored_files.key in full: json_each has a column named key too.
  const under = sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(prefixes)}) p WHERE substr(stored_files.key, 1, length(p.value)) = p.value)`;
  await rawBatch(db, forgetStatements(db, orgId, under));
}
