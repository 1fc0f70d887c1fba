import { z } from 'zod';
import { normalizeAddress, type AddressType } from '../address';
import { answer, whole } from '../answer-schema';

// A person's data requests (issue 40, src/modules/privacy): the export of everything the organisation keeps of a
// contact (GET /contact/{id}/export) and its erasure (POST /contact/{id}/erase), confirmed by typing one of the
// contact's addresses.

/** json: one JSON document (streamed); html: the same as a readable page. */
export const EXPORT_FORMATS = ['json', 'html'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const exportQuerySchema = z.object({ format: z.enum(EXPORT_FORMATS).default('json') });

export const PRIVACY_MESSAGES = {
  confirmRequired: 'Type one of the contact’s addresses to confirm the erasure',
  confirmMismatch: 'This is not one of the contact’s addresses',
  importRunning: 'An import is running; erase after it has finished, so no row of the person is imported again',
  messagesUnderway: 'Messages to this person are still queued or being sent; erase after they have gone',
  erasedAddress: 'This address was erased at the person’s request; only their own sign-up through a form can add it again',
} as const;

/** The erasure's confirmation: one of the contact's addresses as typed (case and spaces aside); the name for a contact with none. */
export const eraseRequestSchema = z.object({
  confirm: z.string({ error: PRIVACY_MESSAGES.confirmRequired }).trim().min(1, PRIVACY_MESSAGES.confirmRequired).max(320),
});
export type EraseRequest = z.infer<typeof eraseRequestSchema>;

/**
 * Whether `typed` confirms the erasure of a contact (the server's check and the console's button): one of its
 * addresses as typed (spaces and, for an email, case aside), or its name when it has no address.
 */
export function confirmsErasure(contact: { name: string; addresses: { type: AddressType; value: string }[] }, typed: string): boolean {
  const text = typed.trim();
  if (!text) return false;
  if (contact.addresses.length === 0) return text.toLowerCase() === contact.name.trim().toLowerCase();
  return contact.addresses.some((a) => normalizeAddress(a.type, text) === normalizeAddress(a.type, a.value));
}

/** What an erasure reached: counts only (the person's data is gone, so the answer holds none). */
export const erasureSchema = answer({
  id: whole(),
  contact_id: whole(),
  state: z.enum(['running', 'done']),
  /** Messages in the organisation's ledgers whose personal data was removed. */
  messages: whole(),
  /** Archive objects in R2 rewritten without the person's messages, of those the organisation has. */
  archive_objects_rewritten: whole(),
  archive_objects_total: whole(),
  /** Archived messages whose personal data was removed. */
  archived_messages: whole(),
  /** Stored import files rewritten without the person's rows. */
  import_files_rewritten: whole(),
  /** Kept unrecognised mails (bounce handler) that named the person's addresses, deleted. */
  kept_mails_deleted: whole(),
  /** Blacklist entries, SMS opt-outs and soft-bounce records of the person's addresses removed. */
  suppressions_removed: whole(),
  /** Activity-log entries whose values were cleared. */
  activity_entries_cleared: whole(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Erasure = z.infer<typeof erasureSchema>;
