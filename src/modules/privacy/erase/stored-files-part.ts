import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { KEPT_PREFIX } from '../../bounce/handle';
import { recordFile } from '../../files/stored-files';
import { isTheirLine, linesOf, mentionsEmail, needlesOf, type Needles } from './line-match';
import type { ErasureSubject } from './subject';

// The erasure in stored files: the organisation's import files (their rows go; the files stay for the imports'
// history, with the size they have now) and the rejections an import kept (a reason quoting an address of theirs
// loses the quote), and the unrecognised mail the bounce handler kept for the operator (a kept mail naming an
// address of theirs is deleted: it is theirs or about them). An import still running is waited for
// (erase-contact.ts), so no file changes under a reader.

/** What a rejection quoting an erased address says instead. */
const ERASED_REASON = 'Erased at the person’s request';

/** Reads the object twice, streaming: once to learn whether and how much to keep, once to write what is kept. */
async function rewriteWithout(files: R2Bucket, key: string, needles: Needles): Promise<number | null> {
  const first = await files.get(key);
  if (!first) return null;
  let kept = 0;
  let dropped = 0;
  for await (const line of linesOf(first.body)) {
    if (isTheirLine(line, needles)) dropped += 1;
    else kept += line.length;
  }
  if (dropped === 0) return null;
  const second = await files.get(key);
  if (!second) return null;
  const { readable, writable } = new FixedLengthStream(kept);
  const writing = (async () => {
    const writer = writable.getWriter();
    for await (const line of linesOf(second.body)) if (!isTheirLine(line, needles)) await writer.write(line);
    await writer.close();
  })();
  const [object] = await Promise.all([files.put(key, readable, { httpMetadata: first.httpMetadata }), writing]);
  return object?.size ?? kept;
}

/**
 * Removes the person's rows from the organisation's import files (every one it stored: an upload not yet started as
 * an import too) and the quotes of their addresses from the imports' rejections; answers how many files changed.
 */
export async function eraseInImports(db: Database, files: R2Bucket, subject: ErasureSubject): Promise<number> {
  const needles = needlesOf(subject.addresses);
  if (needles.emails.length === 0 && needles.phoneDigits.length === 0) return 0;
  const stored = await db.all<{ key: string }>(sql`SELECT key FROM stored_files WHERE org_id = ${subject.orgId} AND kind = 'import'`);
  let rewritten = 0;
  for (const { key } of stored) {
    const size = await rewriteWithout(files, key, needles);
    if (size === null) continue;
    rewritten += 1;
    await recordFile(db, subject.orgId, 'import', key, size);
    await db.run(sql`UPDATE imports SET file_size = ${size} WHERE org_id = ${subject.orgId} AND file_key = ${key}`);
  }
  const imports = await db.all<{ id: number; rejections: string }>(
    sql`SELECT id, rejections FROM imports WHERE org_id = ${subject.orgId} AND rejections IS NOT NULL AND rejections <> '[]'`,
  );
  for (const row of imports) {
    const rejections = JSON.parse(row.rejections) as { row: number; reason: string }[];
    if (!rejections.some((r) => mentionsEmail(r.reason, needles))) continue;
    const cleaned = rejections.map((r) => (mentionsEmail(r.reason, needles) ? { row: r.row, reason: ERASED_REASON } : r));
    await db.run(sql`UPDATE imports SET rejections = ${JSON.stringify(cleaned)} WHERE id = ${row.id} AND org_id = ${subject.orgId}`);
  }
  return rewritten;
}

async function holdsEmail(files: R2Bucket, key: string, needles: Needles): Promise<boolean> {
  const mail = await files.get(key);
  if (!mail) return false;
  for await (const line of linesOf(mail.body)) if (needles.emails.length && isTheirLine(line, { emails: needles.emails, phoneDigits: [] })) return true;
  return false;
}

/** Deletes the kept unrecognised mails that name one of the person's email addresses; answers how many. */
export async function eraseInKeptMail(files: R2Bucket, subject: ErasureSubject): Promise<number> {
  const needles = needlesOf(subject.addresses);
  if (needles.emails.length === 0) return 0;
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await files.list({ prefix: KEPT_PREFIX, cursor, limit: 500, include: ['customMetadata'] });
    const theirs: string[] = [];
    for (const object of page.objects) {
      const meta = object.customMetadata ?? {};
      if (mentionsEmail(`${meta.from ?? ''} ${meta.to ?? ''}`, needles) || (await holdsEmail(files, object.key, needles))) theirs.push(object.key);
    }
    if (theirs.length) await files.delete(theirs);
    deleted += theirs.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}
