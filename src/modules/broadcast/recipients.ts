import { and, sql, type SQL } from 'drizzle-orm';
import { blacklist, contactAddresses, contacts, smsOptOuts, unsubscribes } from '../../db/schema';
import { SKIP_REASONS, type BroadcastType, type Recipients } from '../../shared/contracts/broadcast';
import { contactFilterConditions, contactSearch, type TagLookup } from '../contact/filters';
import { blacklistSkipSql } from '../blacklist/lookup';
import { broadcastReachSql } from '../membership/rules';

// Who a broadcast goes to, in SQL: the one definition the form's preview and the engine's pages share.
// A recipient is a contact the filter selects; the address used is its first address of the broadcast's type
// (by position); it is skipped, with the reason, when it has none, when that address is blacklisted, or when
// the contact unsubscribed from the broadcast's subscription and the broadcast skips the unsubscribed, or (SMS)
// when the number replied STOP. The send path checks the last two again just before sending (send-time-skips.ts).
// Who may be selected at all (held contacts, pending members, non-members) is the membership rule (src/modules/membership/rules.ts).

export interface RecipientRule {
  orgId: number;
  type: BroadcastType;
  recipients: Recipients;
  subscriptionId: number | null;
  skipUnsubscribed: boolean;
}

/** The conditions on `contacts` that select the recipients (filter and search). */
export function recipientConditions(rule: RecipientRule, tagLookup: TagLookup = 'list'): SQL {
  const { filter, search } = rule.recipients;
  const ids = filter.ids?.length ? sql`${contacts.id} IN (SELECT value FROM json_each(${JSON.stringify(filter.ids)}))` : undefined;
  return and(
    // Unary +: pages go by contact id (the primary key), not by an org_id index over every contact and a sort.
    sql`+${contacts.orgId} = ${rule.orgId}`,
    ids,
    ...contactFilterConditions(filter, rule.orgId, tagLookup),
    search ? contactSearch(search, rule.orgId) : undefined,
    // Memberships (src/modules/membership/rules.ts): a held contact, a pending member, a non-member, is no recipient.
    broadcastReachSql(rule, sql`${contacts.id}`, sql`${contacts.membership}`),
  ) as SQL;
}

/** The address a recipient gets the message at: the contact's first address of the broadcast's type. */
export function recipientAddress(rule: RecipientRule): SQL {
  return sql`(SELECT ${contactAddresses.value} FROM ${contactAddresses}
    WHERE ${contactAddresses.contactId} = ${contacts.id} AND ${contactAddresses.orgId} = ${rule.orgId} AND ${contactAddresses.type} = ${rule.type}
    ORDER BY ${contactAddresses.position}, ${contactAddresses.id} LIMIT 1)`;
}

/** Why a recipient whose address (column `address` of the inner select) is as given is skipped, or NULL. */
export function skipReason(rule: RecipientRule, address: SQL, contactId: SQL): SQL {
  const unsubscribed =
    rule.skipUnsubscribed && rule.subscriptionId
      ? sql`WHEN EXISTS (SELECT 1 FROM ${unsubscribes} WHERE ${unsubscribes.orgId} = ${rule.orgId} AND ${unsubscribes.subscriptionId} = ${rule.subscriptionId} AND ${unsubscribes.contactId} = ${contactId}) THEN ${SKIP_REASONS.unsubscribed}`
      : sql``;
  const optedOut =
    rule.type === 'phone'
      ? sql`WHEN EXISTS (SELECT 1 FROM ${smsOptOuts} WHERE ${smsOptOuts.orgId} = ${rule.orgId} AND ${smsOptOuts.phone} = ${address}) THEN ${SKIP_REASONS.smsOptedOut}`
      : sql``;
  // A blacklisted address is told apart by the entry's reason (a bounce, a complaint: src/modules/bounce).
  const blacklisted = sql`${blacklist.orgId} = ${rule.orgId} AND ${blacklist.type} = ${rule.type} AND ${blacklist.value} = ${address}`;
  return sql`CASE
    WHEN ${address} IS NULL THEN ${SKIP_REASONS.noAddress[rule.type]}
    WHEN EXISTS (SELECT 1 FROM ${blacklist} WHERE ${blacklisted}) THEN (SELECT ${blacklistSkipSql(blacklist.reason)} FROM ${blacklist} WHERE ${blacklisted})
    ${unsubscribed}
    ${optedOut}
    ELSE NULL END`;
}

/**
 * The recipients with contact id in (after, upTo], in contact id order, at most `limit`: `id`, `name`,
 * `address`, `reason` (null when the message can go). Keyset paging: the cost of a page never depends on how
 * many pages came before it.
 */
export function recipientPage(rule: RecipientRule, after: number, upTo: number | null, limit: number, tagLookup: TagLookup = 'list'): SQL {
  const page = sql`SELECT ${contacts.id} AS id, ${contacts.name} AS name, ${recipientAddress(rule)} AS address FROM ${contacts}
    WHERE ${recipientConditions(rule, tagLookup)} AND ${contacts.id} > ${after} ${upTo === null ? sql`` : sql`AND ${contacts.id} <= ${upTo}`}
    ORDER BY ${contacts.id} LIMIT ${limit}`;
  const withReason = sql`SELECT r.id, r.name, r.address, ${skipReason(rule, sql`r.address`, sql`r.id`)} AS reason`;
  // A page (at most `limit` rows) is materialized, so each recipient's address is looked up once, not once for each
  // use of it in the reason; the preview's count of every recipient (no limit) streams instead of holding them all.
  return limit > 0 ? sql`WITH r AS MATERIALIZED (${page}) ${withReason} FROM r` : sql`${withReason} FROM (${page}) AS r`;
}

/**
 * How the engine's walk looks up a tag filter, page by page in contact id order: reading the tags' `members` into a
 * list costs `members` rows for every page; looking each contact up costs about `pageSize x orgContacts / members`
 * contacts walked per page. Each contact at a time once the members are many: members^2 > pageSize x orgContacts
 * (at a million tagged contacts in pages of 1,000, the list would read a billion rows over the broadcast).
 */
export function walkTagLookup(members: number, orgContacts: number, pageSize: number): TagLookup {
  return members * members > pageSize * orgContacts ? 'each' : 'list';
}
