import type { Database } from '../../../db/client';
import { orgFilesPrefix } from '../../../lib/r2-prefix';
import { isMessageOf } from '../message-of';
import { addressHolder, archiveKeysHolding, contactHolder } from '../../retention/archive-index';
import type { ExportSubject } from './export-subject';
import { gzipLines } from './gzip-lines';
import { messageView } from './message-view';

type Line = { message: Record<string, unknown> & { contact_id?: unknown; to_address?: unknown }; events: Record<string, unknown>[] };

/**
 * Cheap test before parsing a line: it must mention the contact id or one of the addresses as JSON writes them.
 * A line that passes is parsed and checked for real; most lines of a shared chunk are other people's and fail here.
 */
function mayBeTheirs(subject: ExportSubject): (line: string) => boolean {
  // Lowercased, as recipients are: an address stored in capitals must pass too.
  const needles = [`"contact_id":${subject.contactId},`, `"contact_id":${subject.contactId}}`, ...[...subject.recipients].map((r) => JSON.stringify(r))];
  return (line) => {
    const lower = line.toLowerCase();
    return needles.some((n) => lower.includes(n));
  };
}

/** The archive objects of one ledger holding the subject's mail, by the archive index (contact and address holders). */
export function holdingKeys(ledger: Database, subject: ExportSubject): Promise<string[]> {
  return archiveKeysHolding(ledger, [contactHolder(subject.contactId), ...subject.digests.map(addressHolder)]);
}

/**
 * The subject's archived messages with their events: for each ledger (one at a time), only the R2 objects the
 * archive index names for them, each read as a stream line by line, keeping only their lines.
 */
export async function* archivedMessages(bucket: R2Bucket, ledgers: Database[], subject: ExportSubject): AsyncGenerator<unknown> {
  const candidate = mayBeTheirs(subject);
  const folder = `${orgFilesPrefix(subject.orgId)}archive/`;
  for (const ledger of ledgers) {
    for (const key of await holdingKeys(ledger, subject)) {
      // The index is the organisation's own; the prefix check keeps any stray key from reaching another's files.
      if (!key.startsWith(folder)) continue;
      const object = await bucket.get(key);
      if (!object) continue;
      for await (const text of gzipLines(object.body)) {
        if (!candidate(text)) continue;
        const line = JSON.parse(text) as Line;
        if (isMessageOf(subject.contactId, subject.recipients, line.message)) yield messageView(line.message, line.events ?? []);
      }
    }
  }
}
