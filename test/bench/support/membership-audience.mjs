// The audiences bench:membership-migration compares: who an email broadcast to all of an organisation's contacts
// selects, and why each is skipped (null: the message goes). BEFORE is the rule of src/modules/broadcast/recipients.ts
// before memberships (its last version without them, `git show 4dc27ca^:src/modules/broadcast/recipients.ts`):
// every contact of the organisation, its first email address by position, skipped when it has none, when the
// address is blacklisted, or, when the broadcast skips the unsubscribed, when an unsubscribes row names the
// subscription. AFTER is the same plus the membership rule as the worker renders it (broadcastReachSql of
// src/modules/membership/rules.ts, through drizzle's SQLite dialect), with the contact's `membership` column, as
// recipientConditions passes it. Skip reasons are short labels of those branches (the blacklist's own reason words
// come from the same unchanged row either way).
import { sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { broadcastReachSql } from '../../../src/modules/membership/rules.ts';

const dialect = new SQLiteSyncDialect();

/** The recipients of `rule` ({ orgId, subscriptionId | null, skipUnsubscribed }): rows (id, reason); `reach` adds the membership rule. */
function audienceSql(rule, reach) {
  const { orgId, subscriptionId, skipUnsubscribed } = rule;
  const unsubscribed =
    skipUnsubscribed && subscriptionId
      ? sql`WHEN EXISTS (SELECT 1 FROM unsubscribes u WHERE u.org_id = ${orgId} AND u.subscription_id = ${subscriptionId} AND u.contact_id = r.id) THEN 'unsubscribed'`
      : sql``;
  const selected = reach ? sql`AND ${broadcastReachSql({ subscriptionId, skipUnsubscribed }, sql.raw('c.id'), sql.raw('c.membership'))}` : sql``;
  return sql`SELECT r.id AS id, CASE
      WHEN r.address IS NULL THEN 'no address'
      WHEN EXISTS (SELECT 1 FROM blacklist b WHERE b.org_id = ${orgId} AND b.type = 'email' AND b.value = r.address) THEN 'blacklisted'
      ${unsubscribed}
      ELSE NULL END AS reason
    FROM (SELECT c.id AS id, (SELECT ca.value FROM contact_addresses ca
        WHERE ca.contact_id = c.id AND ca.org_id = ${orgId} AND ca.type = 'email' ORDER BY ca.position, ca.id LIMIT 1) AS address
      FROM contacts c WHERE c.org_id = ${orgId} ${selected}) AS r`;
}

/** { sql, params } storing the pre-0030 audience `key` of `rule` in bench_before (audience, id, reason). */
export function storeBeforeQuery(key, rule) {
  return dialect.sqlToQuery(sql`INSERT INTO bench_before (audience, id, reason) SELECT ${key}, a.id, a.reason FROM (${audienceSql(rule, false)}) AS a`);
}

/**
 * { sql, params } answering one row comparing the audience after 0030 with the stored one: `after_rows`,
 * `after_receiving` (reason null), `gained` (selected now, not before), `changed` (a different reason).
 */
export function compareAfterQuery(key, rule) {
  return dialect.sqlToQuery(sql`SELECT count(*) AS after_rows, coalesce(sum(a.reason IS NULL), 0) AS after_receiving,
      coalesce(sum(b.id IS NULL), 0) AS gained, coalesce(sum(b.id IS NOT NULL AND b.reason IS NOT a.reason), 0) AS changed
    FROM (${audienceSql(rule, true)}) AS a LEFT JOIN bench_before b ON b.audience = ${key} AND b.id = a.id`);
}

/** { sql, params } listing up to 10 differences (contact id, reason before, reason after; 'absent' when not selected). */
export function differencesQuery(key, rule) {
  return dialect.sqlToQuery(sql`SELECT a.id AS id, coalesce(b.reason, CASE WHEN b.id IS NULL THEN 'absent' END) AS before, a.reason AS after
    FROM (${audienceSql(rule, true)}) AS a LEFT JOIN bench_before b ON b.audience = ${key} AND b.id = a.id
    WHERE b.id IS NULL OR b.reason IS NOT a.reason LIMIT 10`);
}

/** { sql, params } listing up to 10 contacts in the stored audience `key` that the audience after 0030 no longer selects. */
export function lostQuery(key, rule) {
  return dialect.sqlToQuery(sql`SELECT b.id AS id, b.reason AS before, 'absent' AS after FROM bench_before b
    WHERE b.audience = ${key} AND b.id NOT IN (SELECT a.id FROM (${audienceSql(rule, true)}) AS a) LIMIT 10`);
}

/** The rendered membership rule of `rule`, for the bench's log (what "after" adds). */
export function reachSqlText(rule) {
  const { sql: text, params } = dialect.sqlToQuery(
    broadcastReachSql({ subscriptionId: rule.subscriptionId, skipUnsubscribed: rule.skipUnsubscribed }, sql.raw('c.id'), sql.raw('c.membership')),
  );
  return `${text.replace(/\s+/g, ' ')}  -- params ${JSON.stringify(params)}`;
}
