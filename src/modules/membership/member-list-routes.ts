import { sql, type SQL } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { subscriptions } from '../../db/schema';
import { validQuery } from '../../lib/validate';
import { memberListQuerySchema, type MemberStatus, type SubscriptionMember } from '../../shared/contracts/membership';
import { PAGE_SIZE_DEFAULT, type ListResponse } from '../../shared/list';
import { rowOr404 } from '../crud/rows';
import { listMeta, listTotalCap } from '../stats/list-counts';
import { presentStanding } from './read';
import { memberStatusSql } from './rules';

// GET /subscription/{id}/members: who is in a subscription, by the membership rule (rules.ts, the definition broadcasts
// read), so this list and a broadcast can never disagree. Ordered by contact id, the order its indexes give at any
// size: `after_id` (keyset: the next page after a contact id) costs one page however deep, where `page` (OFFSET, as
// the crud lists page) costs every row before it; the total is counted up to the lists' cap. An organisation may
// have a million contacts: every contact it added is a member ('implied') unless a row says otherwise, so confirmed
// members (and the whole list) are read from the contacts, walking the (org_id) index in id order; pending and
// unsubscribed ones only ever come from a row, so they are read from the subscription's rows, in its primary key's
// (subscription_id, contact_id) order.

type MemberRow = { contact_id: number; contact_name: string; status: string; source: string | null; consent_id: number | null; updated_at: string | null };

/** The FROM and WHERE of the members in `status` (any standing when null), after contact id `after`. */
function membersOf(orgId: number, subscriptionId: number, status: MemberStatus | null, after: number): { from: SQL; where: SQL; standing: SQL; order: SQL } {
  const standing = memberStatusSql(subscriptionId, sql`ct.id`, sql`ct.membership`);
  if (status === 'pending' || status === 'unsubscribed') {
    return {
      from: sql`subscription_members m JOIN contacts ct ON ct.id = m.contact_id`,
      where: sql`m.subscription_id = ${subscriptionId} AND ct.org_id = ${orgId} AND m.contact_id > ${after} AND ${standing} = ${status}`,
      standing,
      order: sql`m.contact_id`,
    };
  }
  const wanted = status === 'confirmed' ? sql`${standing} IN ('confirmed', 'implied')` : sql`${standing} IS NOT NULL`;
  return {
    from: sql`contacts ct LEFT JOIN subscription_members m ON m.subscription_id = ${subscriptionId} AND m.contact_id = ct.id`,
    where: sql`ct.org_id = ${orgId} AND ct.id > ${after} AND ${wanted}`,
    standing,
    order: sql`ct.id`,
  };
}

export const subscriptionMemberRoutes = new Hono<AppEnv>().get('/:id/members', validQuery(memberListQuerySchema), async (c) => {
  const subscription = await rowOr404(c, subscriptions);
  const query = c.req.valid('query');
  const orgId = c.var.org.id;
  const status = query.status ?? null;
  const pageSize = query.page_size ?? PAGE_SIZE_DEFAULT;
  const page = query.page ?? 1;
  const offset = query.after_id === undefined ? (page - 1) * pageSize : 0;
  const cap = listTotalCap(c.env);
  const rows = membersOf(orgId, subscription.id, status, query.after_id ?? 0);
  const all = membersOf(orgId, subscription.id, status, 0);
  const [members, [counted]] = await Promise.all([
    c.var.db.all<MemberRow>(sql`
      SELECT ct.id AS contact_id, ct.name AS contact_name, ${rows.standing} AS status, m.source, m.consent_id, m.updated_at
      FROM ${rows.from} WHERE ${rows.where} ORDER BY ${rows.order} LIMIT ${pageSize} OFFSET ${offset}`),
    // Counted to the cap at most: a page never pays for counting a million members.
    c.var.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM ${all.from} WHERE ${all.where} LIMIT ${cap + 1})`),
  ]);
  const body: ListResponse<SubscriptionMember> = {
    items: members.map((m) => ({
      contact_id: m.contact_id,
      contact_name: m.contact_name,
      ...presentStanding(m.status, m.source),
      consent_id: m.consent_id,
      updated_at: m.updated_at,
    })),
    meta: listMeta(counted?.n, null, cap, query.after_id === undefined ? page : 1, pageSize),
  };
  return c.json(body);
});
