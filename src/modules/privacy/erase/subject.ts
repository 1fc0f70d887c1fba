import type { AddressType } from '../../../shared/address';
import { addressHolder, contactHolder } from '../../retention/archive-index';
import { contactAddressDigests, recipientKey } from '../address-digest';

// Who an erasure looks for: the contact, its name and its addresses (normalised as contact_addresses keeps them).
// This is the erasure journal's `subject` (erasures.subject) while it runs, and nothing else of the person is kept.

export interface ErasureSubject {
  orgId: number;
  contactId: number;
  name: string;
  addresses: { type: AddressType; value: string }[];
}

/** The addresses as messages and files hold them, lowercased for matching (recipientKey). */
export const subjectNeedles = (subject: ErasureSubject) => [...new Set(subject.addresses.map((a) => recipientKey(a.value)))];

/** The archive index's names for the person: the contact and each address digest under every key of the ring. */
export async function subjectHolders(env: { SECRETS_KEY: string }, subject: ErasureSubject): Promise<string[]> {
  const digests = await contactAddressDigests(env, subject.orgId, subject.addresses);
  return [contactHolder(subject.contactId), ...digests.map(addressHolder)];
}
