import { recipientKey } from './address-digest';

/**
 * Whether a message row (a ledger row or an archive line's `message`) is the person's: made for their contact, or
 * sent to one of their addresses (`recipients`: recipientKey of each), in any case. The export and the erasure read
 * archived lines by this one rule; their SQL says the same with lower(to_address).
 */
export const isMessageOf = (contactId: number, recipients: ReadonlySet<string>, message: { contact_id?: unknown; to_address?: unknown }) =>
  Number(message.contact_id) === contactId || (typeof message.to_address === 'string' && recipients.has(recipientKey(message.to_address)));
