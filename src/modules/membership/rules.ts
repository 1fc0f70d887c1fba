import { sql, type SQL } from 'drizzle-orm';

// Who is a member of what (issue 39): the one SQL definition broadcasts read today, written so segments and automations
// can read it too. A contact the organisation added ('implied': the console, the API, an import, and every contact
// from before memberships) is a member of every subscription unless a subscription_members row says otherwise; a
// contact who signed up through a form ('explicit') is a member only where a row says 'confirmed'. A contact is HELD
// while it is explicit with no confirmed row (it signed up and has not confirmed): held contacts are reached by no
// broadcast at all. `contact` is the SQL naming the contact's id (a column of the outer query); `membership` its
// contacts.membership when the outer query has the row at hand (else it is looked up).

const membershipOf = (contact: SQL) => sql`(SELECT mc.membership FROM contacts mc WHERE mc.id = ${contact})`;

/** True while the contact signed up and confirmed nothing: reached by no broadcast. */
export function heldContactSql(contact: SQL, membership: SQL = membershipOf(contact)): SQL {
  return sql`(${membership} = 'explicit'
    AND NOT EXISTS (SELECT 1 FROM subscription_members hm WHERE hm.contact_id = ${contact} AND hm.status = 'confirmed'))`;
}

/** The contact's standing in a subscription: a row's status, 'implied' for an organisation-added contact without one, else NULL (not a member). */
export function memberStatusSql(subscriptionId: number | SQL, contact: SQL, membership: SQL = membershipOf(contact)): SQL {
  return sql`coalesce(
    (SELECT sm.status FROM subscription_members sm WHERE sm.subscription_id = ${subscriptionId} AND sm.contact_id = ${contact}),
    CASE WHEN ${membership} = 'implied' THEN 'implied' END)`;
}

/**
 * Whether a broadcast may select the contact at all: never a held contact; with a subscription, never one pending in
 * it; and when the broadcast leaves out the unsubscribed, only members (confirmed, implied, or unsubscribed: those are
 * still listed, skipped with their reason, as before memberships).
 */
export function broadcastReachSql(
  rule: { subscriptionId: number | null; skipUnsubscribed: boolean },
  contact: SQL,
  membership: SQL = membershipOf(contact),
): SQL {
  const notHeld = sql`NOT ${heldContactSql(contact, membership)}`;
  if (!rule.subscriptionId) return notHeld;
  const status = memberStatusSql(rule.subscriptionId, contact, membership);
  return rule.skipUnsubscribed ? sql`${notHeld} AND ${status} IN ('confirmed', 'implied', 'unsubscribed')` : sql`${notHeld} AND ${status} IS NOT 'pending'`;
}
