import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { Env } from '../../../env';
import type { Erasure } from '../../../shared/contracts/privacy';
import { ledgerDb } from '../../ledger/ledger-db';
import { allLedgers } from '../../ledger/registry';
import { archiveObjectCount, eraseInArchives } from './archive-part';
import { eraseInLedger } from './ledger-part';
import { eraseInImports, eraseInKeptMail } from './stored-files-part';
import { subjectHolders, type ErasureSubject } from './subject';

// The erasure's copies step, after the D1 step (d1-part.ts) committed: every ledger of the organisation (messages,
// tracking, the event stream) with the archive objects its index names, then the import files and the kept mail;
// then the journal row drops the subject and keeps the counts. Each part finds only what is left, so the cron
// (resume.ts) runs it again for an erasure that was cut off, and nothing of the person is left half-erased.

/** The counts the D1 step knew (kept in the journal's summary until the end). */
export interface KnownCounts {
  suppressions_removed: number;
  activity_entries_cleared: number;
}

export async function runErasure(db: Database, env: Env, erasureId: number, subject: ErasureSubject, known: KnownCounts): Promise<Erasure> {
  const holders = await subjectHolders(env, subject);
  let messages = 0;
  let objectsRewritten = 0;
  let archivedMessages = 0;
  for (const handle of await allLedgers(env, db, subject.orgId)) {
    const ledger = ledgerDb(handle);
    messages += await eraseInLedger(ledger, env.FILES, subject);
    const archives = await eraseInArchives(db, ledger, env.FILES, subject, holders);
    objectsRewritten += archives.objectsRewritten;
    archivedMessages += archives.archivedMessages;
  }
  const importFiles = await eraseInImports(db, env.FILES, subject);
  const keptMails = await eraseInKeptMail(env.FILES, subject);
  const counts = {
    messages,
    archive_objects_rewritten: objectsRewritten,
    archive_objects_total: await archiveObjectCount(db, subject.orgId),
    archived_messages: archivedMessages,
    import_files_rewritten: importFiles,
    kept_mails_deleted: keptMails,
    ...known,
  };
  const [row] = await db.all<{ created_at: string; finished_at: string }>(sql`UPDATE erasures
    SET state = 'done', subject = NULL, summary = ${JSON.stringify(counts)}, finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE id = ${erasureId} AND org_id = ${subject.orgId} RETURNING created_at, finished_at`);
  console.log(JSON.stringify({ level: 'info', job: 'erasure', org: subject.orgId, erasure: erasureId, ...counts }));
  return { id: erasureId, contact_id: subject.contactId, state: 'done', ...counts, created_at: row.created_at, finished_at: row.finished_at };
}
