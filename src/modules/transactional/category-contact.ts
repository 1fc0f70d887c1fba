import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contactAddresses } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { createContact } from '../contact/write';
import type { ReadySend } from './prepare';

// A category send needs someone to unsubscribe: an unsubscribe is a contact's, per subscription, and the link's token
// names the contact (src/modules/unsubscribe/link.ts). So a category send to an address that is no contact makes
// the contact (named by its address, with that one address), as importing or a form would: the person's unsubscribe
// then holds for every later send of that category, and the contact list shows who the organisation writes to.
// A send without a category (transactional: receipts, codes) makes nothing.

/** Makes the contacts the ready category sends need and sets their contactId (one per address, however often named). */
export async function makeCategoryContacts(c: Context<AppEnv>, sends: ReadySend[]): Promise<void> {
  const made = new Map<string, number>();
  for (const send of sends) {
    if (!send.makeContact) continue;
    const type = send.channel === 'sms' ? 'phone' : 'email';
    const key = `${type}:${send.to}`;
    let id = made.get(key);
    if (id === undefined) {
      id = await contactFor(c, type, send.to);
      made.set(key, id);
    }
    send.contactId = id;
    send.makeContact = false;
  }
}

async function contactFor(c: Context<AppEnv>, type: 'email' | 'phone', address: string): Promise<number> {
  try {
    return await createContact(c, { name: address, note: null, addresses: [{ type, value: address }] });
  } catch (error) {
    // Another call made it a moment ago (the address is unique in the organisation): that contact is the one.
    if (!(error instanceof ApiError) || error.status !== 422) throw error;
    const [row] = await c.var.db
      .select({ id: contactAddresses.contactId })
      .from(contactAddresses)
      .where(and(eq(contactAddresses.orgId, c.var.org.id), eq(contactAddresses.type, type), eq(contactAddresses.value, address)));
    if (!row) throw error;
    return row.id;
  }
}
