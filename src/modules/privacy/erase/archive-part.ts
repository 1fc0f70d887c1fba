import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { putOrgFile } from '../../files/stored-files';
import { archiveKeysHolding, forgetHolders } from '../../retention/archive-index';
import { isMessageOf } from '../message-of';
import { eraseArchivedLine } from './erased-message';
import { subjectNeedles, type ErasureSubject } from './subject';

// The erasure in the R2 archives (src/modules/retention/archive.ts): the archive index names the objects holding the
// person's mail, and only those are read, their lines erased (erased-message.ts) and written back under the same key;
// then the index forgets the person. An object is written whole or not at all (R2), and the index rows go only after
// every object is rewritten, so an erasure cut off part-way finds the rest again.

/** Objects rewritten at once: each is one read and one write of up to ARCHIVE_CHUNK messages. */
const PARALLEL = 8;

export interface ArchiveErasure {
  objectsRewritten: number;
  archivedMessages: number;
}

async function gunzipText(body: ReadableStream): Promise<string> {
  return new Response(body.pipeThrough(new DecompressionStream('gzip'))).text();
}

async function gzip(text: string): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
}

/** Rewrites one archive object without the person's data; answers how many of their messages it held. */
async function rewriteObject(db: Database, files: R2Bucket, subject: ErasureSubject, key: string): Promise<number> {
  const object = await files.get(key);
  if (!object) return 0;
  const needles = new Set(subjectNeedles(subject));
  let erased = 0;
  const lines = (await gunzipText(object.body)).split('\n').map((text) => {
    if (!text) return text;
    const line = JSON.parse(text);
    if (!isMessageOf(subject.contactId, needles, line.message)) return text;
    erased += 1;
    return JSON.stringify(eraseArchivedLine(line));
  });
  if (erased > 0) {
    await putOrgFile(files, db, subject.orgId, 'archive', key, await gzip(lines.join('\n')), { httpMetadata: { contentType: 'application/gzip' } });
  }
  return erased;
}

/** Erases the person's archived messages that one ledger's index names. */
export async function eraseInArchives(db: Database, ledger: Database, files: R2Bucket, subject: ErasureSubject, holders: string[]): Promise<ArchiveErasure> {
  const keys = await archiveKeysHolding(ledger, holders);
  const done: ArchiveErasure = { objectsRewritten: 0, archivedMessages: 0 };
  for (let i = 0; i < keys.length; i += PARALLEL) {
    const counts = await Promise.all(keys.slice(i, i + PARALLEL).map((key) => rewriteObject(db, files, subject, key)));
    for (const n of counts) {
      if (n > 0) done.objectsRewritten += 1;
      done.archivedMessages += n;
    }
  }
  await forgetHolders(ledger, holders);
  return done;
}

/** How many archive objects the organisation has (the erasure's answer puts the rewritten ones beside it). */
export async function archiveObjectCount(db: Database, orgId: number): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM message_archives WHERE org_id = ${orgId}`);
  return Number(row?.n ?? 0);
}
