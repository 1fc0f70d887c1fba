import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contactAddresses, erasedAddresses } from '../../db/schema';
import type { AddressType } from '../../shared/address';
import type { BatchStatement } from '../crud/raw-batch';
import { addressDigest, addressDigests, recipientKey } from './address-digest';

// The "do not re-add" list (issue 40): the keyed digests of the addresses an erasure removed. The console, the API
// and the import refuse to add such an address again; the person's own form sign-up may (their new consent), and
// lifts the row (at sign-up with single opt-in, at the confirmation with double opt-in: the person proved the
// address). Every reader and writer of erased_addresses goes through this file (but the local example seed's SQL,
// src/modules/contact/seed-example.ts, which only asks whether the list has any row).

type Env = { SECRETS_KEY: string };

/** An address as a write names it. The type is not part of the digest (address-digest.ts). */
export interface ListedAddress {
  type: AddressType;
  value: string;
}

/** The addresses of a lookup that are on the list, by recipientKey (the address as the digest reads it). */
export interface ErasedSet {
  has(value: string): boolean;
  readonly size: number;
}

const EMPTY: ErasedSet = { has: () => false, size: 0 };

/** Each digest an address may be written under (every entry of the key ring), with the address it stands for. */
export async function lookupDigests(env: Env, orgId: number, addresses: ListedAddress[]): Promise<Map<string, string>> {
  const keys = [...new Set(addresses.map((a) => recipientKey(a.value)))].filter(Boolean);
  const byDigest = new Map<string, string>();
  const digests = await Promise.all(keys.map((key) => addressDigests(env, orgId, key)));
  keys.forEach((key, i) => {
    for (const digest of digests[i]) byDigest.set(digest, key);
  });
  return byDigest;
}

/** The query for which of `digests` are on the organisation's list: one statement, to run alone or in a caller's batch. */
export function listedDigestsQuery(db: Database, orgId: number, digests: string[]) {
  return db
    .select({ digest: erasedAddresses.digest })
    .from(erasedAddresses)
    .where(and(eq(erasedAddresses.orgId, orgId), sql`${erasedAddresses.digest} IN (SELECT value FROM json_each(${JSON.stringify(digests)}))`));
}

/** The addresses those rows stand for. */
export function erasedSetOf(byDigest: Map<string, string>, rows: { digest: string }[]): ErasedSet {
  if (rows.length === 0) return EMPTY;
  const values = new Set(rows.map((r) => byDigest.get(r.digest)).filter((v): v is string => v !== undefined));
  return { has: (value) => values.has(recipientKey(value)), size: values.size };
}

/** Which of `addresses` are on the organisation's list, in one D1 query however many there are (none: no query). */
export async function erasedAmong(db: Database, env: Env, orgId: number, addresses: ListedAddress[]): Promise<ErasedSet> {
  const byDigest = await lookupDigests(env, orgId, addresses);
  if (byDigest.size === 0) return EMPTY;
  return erasedSetOf(byDigest, await listedDigestsQuery(db, orgId, [...byDigest.keys()]));
}

/** Whether the organisation's list has any row (an import asks once, then hashes no address when it has none). */
export async function hasErasedAnyone(db: Database, orgId: number): Promise<boolean> {
  const rows = await db.select({ digest: erasedAddresses.digest }).from(erasedAddresses).where(eq(erasedAddresses.orgId, orgId)).limit(1);
  return rows.length > 0;
}

/** Takes `addresses` off the organisation's list (their rows under every key): the person's own sign-up. */
export async function liftErased(db: Database, env: Env, orgId: number, addresses: ListedAddress[]): Promise<number> {
  const byDigest = await lookupDigests(env, orgId, addresses);
  if (byDigest.size === 0) return 0;
  const result = await db
    .delete(erasedAddresses)
    .where(and(eq(erasedAddresses.orgId, orgId), sql`${erasedAddresses.digest} IN (SELECT value FROM json_each(${JSON.stringify([...byDigest.keys()])}))`));
  return result.meta.changes ?? 0;
}

/**
 * Takes a contact's addresses off the list: the person signed up through a form (single opt-in) or confirmed it
 * (double opt-in). Only their own sign-up can have put a listed address on a contact, so these are the ones it brought.
 */
export async function liftErasedOfContact(db: Database, env: Env, orgId: number, contactId: number): Promise<number> {
  const addresses = await db
    .select({ type: contactAddresses.type, value: contactAddresses.value })
    .from(contactAddresses)
    .where(and(eq(contactAddresses.orgId, orgId), eq(contactAddresses.contactId, contactId)));
  return liftErased(db, env, orgId, addresses as ListedAddress[]);
}

/** The statement that puts `addresses` on the list (under the ring's current key), for the erasure's batch. */
export async function eraseListStatements(db: Database, env: Env, orgId: number, addresses: ListedAddress[]): Promise<BatchStatement[]> {
  const keys = [...new Set(addresses.map((a) => recipientKey(a.value)))].filter(Boolean);
  if (keys.length === 0) return [];
  const digests = await Promise.all(keys.map((key) => addressDigest(env, orgId, key)));
  return [
    db.run(sql`INSERT INTO ${erasedAddresses} (org_id, digest) SELECT ${orgId}, j.value FROM json_each(${JSON.stringify(digests)}) j
      WHERE true ON CONFLICT (org_id, digest) DO NOTHING`),
  ];
}
