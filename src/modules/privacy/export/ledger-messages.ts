import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { ExportSubject } from './export-subject';
import { messageView } from './message-view';

/** Messages per ledger read (with their events in a second read): one page is all the export holds of them. */
export const MESSAGE_PAGE = 500;

type Row = Record<string, unknown> & { id: number; message_id?: number };

/**
 * A page of the subject's messages after `after`, by id: those made for the contact and those sent to one of its
 * addresses without naming it (the send API to a bare address). to_address has no index, so each page walks the
 * organisation's messages from `after` on until it has a page (the whole ledger, once, over all pages).
 */
const messagePage = (ledger: Database, subject: ExportSubject, after: number) =>
  ledger.all<Row>(sql`SELECT * FROM messages WHERE org_id = ${subject.orgId} AND id > ${after}
    AND (contact_id = ${subject.contactId} OR lower(to_address) IN (SELECT value FROM json_each(${JSON.stringify([...subject.recipients])})))
    ORDER BY id LIMIT ${MESSAGE_PAGE}`);

/** The tracking events of a page of messages, through the (org_id, message_id, at) index. */
const eventsOf = (ledger: Database, orgId: number, ids: number[]) =>
  ledger.all<Row>(sql`SELECT * FROM tracking_events WHERE org_id = ${orgId}
    AND message_id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) ORDER BY message_id, at, id`);

/** Every message of the subject in the organisation's ledgers, one ledger after the other, a page at a time. */
export async function* ledgerMessages(ledgers: Database[], subject: ExportSubject): AsyncGenerator<unknown> {
  for (const ledger of ledgers) {
    let after = 0;
    for (;;) {
      const rows = await messagePage(ledger, subject, after);
      if (rows.length === 0) break;
      const events = await eventsOf(
        ledger,
        subject.orgId,
        rows.map((r) => r.id),
      );
      const byMessage = new Map<number, Row[]>();
      for (const e of events) {
        const id = Number(e.message_id);
        const list = byMessage.get(id);
        if (list) list.push(e);
        else byMessage.set(id, [e]);
      }
      for (const row of rows) yield messageView(row, byMessage.get(row.id) ?? []);
      if (rows.length < MESSAGE_PAGE) break;
      after = rows[rows.length - 1].id;
    }
  }
}
