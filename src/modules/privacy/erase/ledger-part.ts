import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { rawBatch } from '../../crud/raw-batch';
import { ERASED_CONTACT_DELETED } from './d1-part';
import { ERASED_ADDRESS, erasedEventSet, erasedMessageSet, erasedStreamEventData } from './erased-message';
import { subjectNeedles, type ErasureSubject } from './subject';

// The erasure in one of the organisation's ledgers, one transaction: the person's messages (by contact, or by
// address: the send API's messages to a bare address name no contact) keep only what erased-message.ts says, with
// their tracking events; the event stream's copies of them and of the contact lose the same; stored answers of the
// send API that quote an address of theirs go. Inline attachments of those messages (R2) are deleted first, while
// the rows still name them. Running it again finds nothing left to change.

/** The person's messages in a ledger. */
function theirMessages(subject: ErasureSubject): SQL {
  const needles = JSON.stringify(subjectNeedles(subject));
  return sql`org_id = ${subject.orgId} AND to_address <> ${ERASED_ADDRESS}
    AND (contact_id = ${subject.contactId} OR lower(to_address) IN (SELECT value FROM json_each(${needles})))`;
}

/** Messages that are not settled yet (queued or being sent): an erasure waits for them (erase-contact.ts). */
export async function unsettledMessages(ledger: Database, subject: ErasureSubject): Promise<number> {
  const [row] = await ledger.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM messages WHERE ${theirMessages(subject)} AND status NOT IN ('sent', 'failed', 'skipped')`,
  );
  return Number(row?.n ?? 0);
}

/** The R2 keys of the inline attachments the person's messages were sent with. */
async function attachmentKeys(ledger: Database, subject: ErasureSubject): Promise<string[]> {
  const rows = await ledger.all<{ key: string }>(sql`SELECT a.value ->> 'key' AS key FROM messages m, json_each(m.send_options, '$.attachments') a
    WHERE ${theirMessages(subject)} AND m.send_options IS NOT NULL AND a.value ->> 'key' IS NOT NULL`);
  return rows.map((r) => r.key);
}

/** Erases the person's data in one ledger; answers how many of their messages it erased. */
export async function eraseInLedger(ledger: Database, files: R2Bucket, subject: ErasureSubject): Promise<number> {
  const keys = await attachmentKeys(ledger, subject);
  if (keys.length) await files.delete(keys);
  const { contactId } = subject;
  const theirs = theirMessages(subject);
  const needles = subjectNeedles(subject);
  const results = await rawBatch(ledger, [
    // Their messages' events, also of messages archived since (the stream keeps 30 days; the rows may be in R2 by now).
    ledger.run(sql`UPDATE events SET data = ${erasedStreamEventData}
      WHERE data ->> '$.message.id' IN (SELECT id FROM messages WHERE ${theirs}) OR data ->> '$.message.contact_id' = ${contactId}
        OR lower(data ->> '$.message.to') IN (SELECT value FROM json_each(${JSON.stringify(needles)}))`),
    ledger.run(sql`UPDATE events SET data = json_object('contact', json_object('id', ${contactId}), 'gone', json('true'))
      WHERE type IN ('contact.created', 'contact.updated') AND data ->> '$.contact.id' = ${contactId}`),
    ledger.run(sql`UPDATE events SET data = ${ERASED_CONTACT_DELETED(contactId)} WHERE type = 'contact.deleted' AND data ->> '$.contact.id' = ${contactId}`),
    // Any other event quoting an address of theirs (a suppression, an SMS opt-out): the address goes, the event stays.
    ...needles.flatMap((needle) => [
      ledger.run(sql`UPDATE events SET data = replace(data, ${needle}, ${ERASED_ADDRESS}) WHERE instr(data, ${needle}) > 0`),
      ledger.run(sql`UPDATE events SET data = replace(lower(data), ${needle}, ${ERASED_ADDRESS}) WHERE instr(lower(data), ${needle}) > 0`),
    ]),
    ledger.run(sql`UPDATE tracking_events SET ${erasedEventSet}
      WHERE org_id = ${subject.orgId} AND message_id IN (SELECT id FROM messages WHERE ${theirs})`),
    ledger.run(sql`UPDATE messages SET ${erasedMessageSet} WHERE ${theirs}`),
    ledger.run(sql`DELETE FROM idempotency_keys
      WHERE EXISTS (SELECT 1 FROM json_each(${JSON.stringify(needles)}) n WHERE instr(lower(coalesce(body, '')), n.value) > 0)`),
  ]);
  return Number(results[results.length - 2].meta.changes ?? 0);
}
