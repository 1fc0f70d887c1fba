import { sql, type SQL } from 'drizzle-orm';

// The FTS5 trigram indexes of migrations/0003_contact_search_index.sql, kept in step by triggers:
// contact_text_search (rowid = contact id; name and note) and contact_address_search (rowid = address id).
// A trigram index answers substring queries of three characters or more; shorter text cannot use it.

/** The shortest text the trigram indexes can look up. */
export const MIN_INDEXED_SEARCH = 3;

/** Whether `text` is long enough for the trigram indexes. */
export const canUseSearchIndex = (text: string) => [...text].length >= MIN_INDEXED_SEARCH;

/** An FTS5 phrase that matches `text` literally as a substring (quotes doubled, nothing else special). */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** Ids of this organisation's contacts whose name or note contains `text` (3+ characters). */
export function contactIdsWithText(text: string, orgId: number): SQL {
  return sql`SELECT rowid FROM contact_text_search WHERE contact_text_search MATCH ${phrase(text)} AND org_id = ${orgId}`;
}

/** Ids of this organisation's contacts with an address value containing `text` (3+ characters). */
export function contactIdsWithAddress(text: string, orgId: number): SQL {
  return sql`SELECT contact_id FROM contact_address_search WHERE contact_address_search MATCH ${phrase(text)} AND org_id = ${orgId}`;
}
