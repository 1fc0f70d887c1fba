import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { rawBatch, type BatchStatement } from '../../crud/raw-batch';
import { addDaily } from '../../stats/daily';
import type { Env } from '../../../env';
import { eraseListStatements } from '../erased-list';
import { subjectNeedles, type ErasureSubject } from './subject';

// The erasure's first step, one D1 transaction: the journal row (with the subject, so a cut-off erasure is finished
// by the cron: resume.ts), the addresses on the "do not re-add" list, the contact with everything that cascades from
// it (addresses, tags, field values, memberships, consents, unsubscribes with their comments, the search index), the
// blacklist entries, SMS opt-outs and soft-bounce records of its addresses, the values of its activity-log entries,
// and the erasure itself in the log without personal data. Once this commits, the console and API no longer find
// the person; what follows (ledgers, archives, stored files: run-erasure.ts) only removes copies.
//
// The events the delete makes are made to carry nothing of the person either: contact.deleted names only the id
// (with `erased: true`; webhooks tell the organisation's own systems), and the unsuppressed / opted-in events the
// suppression deletes would record (with the address) are not events of the person's doing, so they are dropped.

export interface Actor {
  userId: number | null;
  apiKeyId: number | null;
  client: { browser: string | null; os: string | null; device: string | null };
}

export interface D1Erasure {
  erasureId: number;
  suppressionsRemoved: number;
  activityEntriesCleared: number;
}

/** What contact.deleted says of an erased contact. */
export const ERASED_CONTACT_DELETED = (contactId: number) => JSON.stringify({ contact: { id: contactId, name: null, emails: [], phones: [] }, erased: true });

export async function eraseInD1(db: Database, env: Env, subject: ErasureSubject, actor: Actor): Promise<D1Erasure> {
  const { orgId, contactId } = subject;
  const needles = JSON.stringify(subjectNeedles(subject));
  const phones = JSON.stringify(subject.addresses.filter((a) => a.type === 'phone').map((a) => a.value));
  const mentions = (column: string) => sql`EXISTS (SELECT 1 FROM json_each(${needles}) n WHERE instr(lower(coalesce(${sql.raw(column)}, '')), n.value) > 0)`;
  const statements: BatchStatement[] = [
    db.run(sql`INSERT INTO erasures (org_id, contact_id, subject, user_id, api_key_id)
      VALUES (${orgId}, ${contactId}, ${JSON.stringify(subject)}, ${actor.userId}, ${actor.apiKeyId})`),
    // RETURNING counts the rows: D1's `changes` counts the rows the triggers write too.
    db.all(sql`DELETE FROM blacklist WHERE org_id = ${orgId} AND lower(value) IN (SELECT value FROM json_each(${needles})) RETURNING 1`),
    db.all(sql`DELETE FROM sms_opt_outs WHERE org_id = ${orgId} AND phone IN (SELECT value FROM json_each(${phones})) RETURNING 1`),
    db.all(sql`DELETE FROM soft_bounces WHERE org_id = ${orgId} AND lower(address) IN (SELECT value FROM json_each(${needles})) RETURNING 1`),
    db.all(sql`UPDATE activity_log SET previous_value = NULL, new_value = NULL
      WHERE org_id = ${orgId} AND (previous_value IS NOT NULL OR new_value IS NOT NULL)
        AND ((entity = 'contact' AND entity_id = ${contactId}) OR ${mentions('previous_value')} OR ${mentions('new_value')}) RETURNING 1`),
    db.run(sql`DELETE FROM contacts WHERE id = ${contactId} AND org_id = ${orgId}`),
    db.run(sql`UPDATE event_outbox SET data = ${ERASED_CONTACT_DELETED(contactId)}
      WHERE org_id = ${orgId} AND contact_id = ${contactId} AND type = 'contact.deleted'`),
    // Pending events that carry an address of theirs (the suppression deletes above just made some).
    db.run(sql`DELETE FROM event_outbox WHERE org_id = ${orgId} AND type <> 'contact.deleted' AND ${mentions('data')}`),
    db.run(sql`INSERT INTO activity_log (org_id, user_id, api_key_id, entity, entity_id, action, field, browser, os, device)
      VALUES (${orgId}, ${actor.userId}, ${actor.apiKeyId}, 'contact', ${contactId}, 'erase', 'contact',
        ${actor.client.browser}, ${actor.client.os}, ${actor.client.device})`),
  ];
  statements.push(...(await eraseListStatements(db, env, orgId, subject.addresses)));
  const daily = addDaily(db, orgId, { contacts_deleted: 1 });
  if (daily) statements.push(daily);
  const results = await rawBatch(db, statements);
  const changes = (i: number) => results[i].results?.length ?? 0;
  return {
    erasureId: Number(results[0].meta.last_row_id),
    suppressionsRemoved: changes(1) + changes(2) + changes(3),
    activityEntriesCleared: changes(4),
  };
}
