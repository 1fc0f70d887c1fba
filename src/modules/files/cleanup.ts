import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { deleteOrgFiles } from './stored-files';

// Files nobody needs any more, removed by the cron after a grace period (and counted in file volume until then):
// uploads that never became an import, import files of imports finished a week ago, and archive objects whose
// chunk was never recorded (a run that died between writing and recording, and chose other rows the next time).

const DAY_MS = 86_400_000;
export const FILE_GRACE_MS = { unstartedUpload: DAY_MS, finishedImport: 7 * DAY_MS, unrecordedArchive: DAY_MS };
/** Objects one cron run removes at most. */
const PER_RUN = 1000;

/** Removes the stale files; answers how many. */
export async function cleanUpStaleFiles(db: Database, bucket: R2Bucket, now = Date.now()): Promise<number> {
  const at = (ms: number) => new Date(now - ms).toISOString();
  const stale = await db.all<{ key: string; org_id: number }>(sql`
    SELECT f.key, f.org_id FROM stored_files f
    WHERE f.kind = 'import' AND f.created_at < ${at(FILE_GRACE_MS.unstartedUpload)}
      AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.org_id = f.org_id AND i.file_key = f.key
        AND (i.status NOT IN ('success', 'fail') OR i.finished_at IS NULL OR i.finished_at >= ${at(FILE_GRACE_MS.finishedImport)}))
    UNION ALL
    SELECT f.key, f.org_id FROM stored_files f
    WHERE f.kind = 'archive' AND f.created_at < ${at(FILE_GRACE_MS.unrecordedArchive)}
      AND NOT EXISTS (SELECT 1 FROM message_archives a WHERE a.key = f.key)
    LIMIT ${PER_RUN}`);
  const byOrg = new Map<number, string[]>();
  for (const { key, org_id } of stale) byOrg.set(org_id, [...(byOrg.get(org_id) ?? []), key]);
  for (const [orgId, keys] of byOrg) await deleteOrgFiles(bucket, db, orgId, keys);
  return stale.length;
}
