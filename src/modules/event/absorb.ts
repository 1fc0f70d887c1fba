import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contactEventData } from './contact-data';

// The first ledger's side of D1's events: D1's triggers (migration 0029) record what changes there in `event_outbox`,
// in the change's own transaction; the organisation's first ledger takes them into its stream, in the outbox's order,
// and then deletes them from D1. The event keeps the outbox row's id and time, and the insert ignores an id it already
// has, so an absorption that dies between its insert and D1's delete (or runs twice) records nothing twice.

/** Outbox rows read and absorbed at a time. */
export const ABSORB_PAGE = 500;
/** Pages one absorption takes at most; the next announcement (or the cron) takes the rest. */
export const ABSORB_PAGES = 10;

interface OutboxRow {
  id: number;
  event_id: string;
  type: string;
  contact_id: number | null;
  data: string | null;
  at: string;
}

const CONTACT_NOW = new Set(['contact.created', 'contact.updated']);

/** One page of the organisation's outbox into the ledger's stream, then out of D1; answers how many rows it took. */
async function absorbPage(storage: DurableObjectStorage, d1: Database, orgId: number): Promise<number> {
  const rows = await d1.all<OutboxRow>(sql`
    SELECT id, event_id, type, contact_id, data, at FROM event_outbox WHERE org_id = ${orgId} ORDER BY id LIMIT ${ABSORB_PAGE}`);
  if (rows.length === 0) return 0;
  const contactIds = [...new Set(rows.filter((r) => CONTACT_NOW.has(r.type) && r.contact_id !== null).map((r) => Number(r.contact_id)))];
  const contactsNow = await contactEventData(d1, orgId, contactIds);
  storage.transactionSync(() => {
    for (const row of rows) {
      const data = CONTACT_NOW.has(row.type)
        ? JSON.stringify(contactsNow.get(Number(row.contact_id)) ?? { contact: { id: row.contact_id }, gone: true })
        : (row.data ?? '{}');
      storage.sql.exec('INSERT OR IGNORE INTO events (id, type, at, data) VALUES (?, ?, ?, ?)', row.event_id, row.type, row.at, data);
    }
  });
  await d1.run(sql`DELETE FROM event_outbox WHERE org_id = ${orgId} AND id IN (SELECT value FROM json_each(${JSON.stringify(rows.map((r) => r.id))}))`);
  return rows.length;
}

/** Absorbs the organisation's outbox, a page at a time (at most ABSORB_PAGES); answers how many events it took. */
export async function absorbOutbox(storage: DurableObjectStorage, d1: Database, orgId: number): Promise<number> {
  let taken = 0;
  for (let page = 0; page < ABSORB_PAGES; page++) {
    const n = await absorbPage(storage, d1, orgId);
    taken += n;
    if (n < ABSORB_PAGE) break;
  }
  return taken;
}
