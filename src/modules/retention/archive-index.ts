import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { addressDigest } from '../privacy/address-digest';

// The archive index (the ledger's archive_holders, ledger-schema.ts step 15): which archive objects hold mail of a
// contact ('c:<id>') or to an address ('a:<digest>'). Both, because a message may name no contact (the send API to
// a bare address) and a contact's address may have changed since. Written by archive.ts with the chunk; read by a
// person's export and erasure (src/modules/privacy), which thereby open only the objects that hold their mail.

export const contactHolder = (contactId: number) => `c:${contactId}`;
export const addressHolder = (digest: string) => `a:${digest}`;

/** The holders of a chunk's messages, each once. */
export async function chunkHolders(env: { SECRETS_KEY: string }, orgId: number, rows: { contact_id: unknown; to_address: unknown }[]): Promise<string[]> {
  const holders = new Set<string>();
  const addresses = new Set<string>();
  for (const row of rows) {
    if (row.contact_id != null) holders.add(contactHolder(Number(row.contact_id)));
    if (typeof row.to_address === 'string' && row.to_address) addresses.add(row.to_address);
  }
  for (const digest of await Promise.all([...addresses].map((a) => addressDigest(env, orgId, a)))) holders.add(addressHolder(digest));
  return [...holders];
}

/** The archive objects (R2 keys) holding mail of any of `holders`, in key order. */
export async function archiveKeysHolding(ledger: Database, holders: string[]): Promise<string[]> {
  if (holders.length === 0) return [];
  const rows = await ledger.all<{ key: string }>(
    sql`SELECT DISTINCT key FROM archive_holders WHERE holder IN (SELECT value FROM json_each(${JSON.stringify(holders)})) ORDER BY key`,
  );
  return rows.map((r) => r.key);
}

/** Removes `holders` from the index (their mail has been erased from the objects). */
export async function forgetHolders(ledger: Database, holders: string[]): Promise<void> {
  if (holders.length === 0) return;
  await ledger.run(sql`DELETE FROM archive_holders WHERE holder IN (SELECT value FROM json_each(${JSON.stringify(holders)}))`);
}
