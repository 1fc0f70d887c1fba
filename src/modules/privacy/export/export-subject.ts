import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { contactAddresses } from '../../../db/schema';
import type { AddressType } from '../../../shared/address';
import { contactAddressDigests, recipientKey } from '../address-digest';

/** Whom an export is about: the contact and its addresses, as stored and as messages and the archive index name them. */
export interface ExportSubject {
  orgId: number;
  contactId: number;
  addresses: { type: AddressType; value: string }[];
  /** recipientKey of each address: how a message's to_address is compared. */
  recipients: Set<string>;
  /** Every digest of every address (the archive index's 'a:' holders), under each key of the ring. */
  digests: string[];
}

/** Reads the contact's addresses (of its organisation only) and their digests. */
export async function exportSubject(db: Database, env: { SECRETS_KEY: string }, orgId: number, contactId: number): Promise<ExportSubject> {
  const rows = await db
    .select({ type: contactAddresses.type, value: contactAddresses.value })
    .from(contactAddresses)
    .where(and(eq(contactAddresses.orgId, orgId), eq(contactAddresses.contactId, contactId)))
    .orderBy(asc(contactAddresses.position), asc(contactAddresses.id));
  const addresses = rows.map((r) => ({ type: r.type as AddressType, value: r.value }));
  return {
    orgId,
    contactId,
    addresses,
    recipients: new Set(addresses.map((a) => recipientKey(a.value))),
    digests: await contactAddressDigests(env, orgId, addresses),
  };
}
