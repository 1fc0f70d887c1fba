import { and, eq } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { contactAddresses } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { PRIVACY_MESSAGES } from '../../shared/contracts/privacy';
import { createContact } from '../contact/write';
import { erasedAmong } from '../privacy/erased-list';
import type { Prepared, ReadySend } from './prepare';

// A category send needs someone to unsubscribe: an unsubscribe is a contact's, per subscription, and the link's token
// names the contact (src/modules/unsubscribe/link.ts). So a category send to an address that is no contact makes
// the contact (named by its address, with that one address), as importing or a form would: the person's unsubscribe
// then holds for every later send of that category, and the contact list shows who the organisation writes to.
// A send without a category (transactional: receipts, codes) makes nothing.
//
// An address erased at the person's request (src/modules/privacy/erased-list.ts) is not made a contact again: such a
// category send is refused (422 on `to`) rather than sent without a contact, since its unsubscribe link needs the
// contact, and a category mail the person cannot leave is what their erasure objected to. A send without a category
// to that address goes (it makes no contact, and a receipt or a sign-in code answers something the person did at the
// organisation's own software); so does a category send to a contact that holds the address (a pending sign-up's).

/** Refuses the ready category sends that would make a contact of an erased address; one D1 query, only when some would. */
export async function refuseErasedRecipients(c: Context<AppEnv>, prepared: Prepared[]): Promise<Prepared[]> {
  const making = prepared.flatMap((p) => (p.ok && p.send.makeContact ? [p.send] : []));
  if (making.length === 0) return prepared;
  const erased = await erasedAmong(
    c.var.db,
    c.env,
    c.var.org.id,
    making.map((send) => ({ type: send.channel === 'sms' ? 'phone' : 'email', value: send.to })),
  );
  if (erased.size === 0) return prepared;
  return prepared.map((p) => (p.ok && p.send.makeContact && erased.has(p.send.to) ? { ok: false, fields: { to: [PRIVACY_MESSAGES.erasedAddress] } } : p));
}

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
