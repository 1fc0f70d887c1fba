import { and, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contacts } from '../../db/schema';
import { sameOrg } from '../../db/same-org';
import { attributeValues, relationQueries } from '../contact/present';

// contact.created and contact.updated carry the contact as it is when the stream takes the event (D1's trigger
// records only its id): its name, note, addresses, tags' names and custom fields as the contact API answers them.
// Several events of one contact in a page all show it as it is then; a contact deleted meanwhile is `gone`.

export type ContactEventData = { contact: Record<string, unknown> } | { contact: { id: number }; gone: true };

/** The event data of each contact of `ids` (of organisation `orgId`), read from D1 in one batch of four queries
 * (the ids as one JSON parameter: D1 binds at most 100). */
export async function contactEventData(d1: Database, orgId: number, ids: number[]): Promise<Map<number, ContactEventData>> {
  const out = new Map<number, ContactEventData>();
  if (ids.length === 0) return out;
  const [rows, addressRows, tagRows, attributeRows] = await d1.batch([
    d1
      .select({ id: contacts.id, name: contacts.name, note: contacts.note })
      .from(contacts)
      .where(and(sameOrg(contacts.orgId, orgId), sql`${contacts.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)),
    ...relationQueries(d1, orgId, ids),
  ]);
  for (const id of ids) out.set(id, { contact: { id }, gone: true });
  for (const row of rows) {
    const addresses = addressRows.filter((a) => a.contactId === row.id);
    out.set(row.id, {
      contact: {
        id: row.id,
        name: row.name,
        note: row.note,
        emails: addresses.filter((a) => a.type === 'email').map((a) => a.value),
        phones: addresses.filter((a) => a.type === 'phone').map((a) => a.value),
        tags: tagRows.filter((t) => t.contactId === row.id).map((t) => t.name),
        attributes: attributeValues(attributeRows.filter((a) => a.contactId === row.id)),
      },
    });
  }
  return out;
}
