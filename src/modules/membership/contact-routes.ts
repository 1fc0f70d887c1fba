import { asc, desc, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { consents, contacts, subscriptions } from '../../db/schema';
import type { Consent, MemberSource, MemberStatus, Membership } from '../../shared/contracts/membership';
import { rowOr404 } from '../crud/rows';
import { memberStatusSql } from './rules';

// GET /contact/{id}/memberships: the contact's standing in every subscription of the organisation (an 'implied' row
// where the organisation added the contact and no row says otherwise, by the rule of rules.ts) and the
// consent of each of its sign-ups, as the contact's page shows them.

type StandingRow = { id: number; name: string; status: string | null; source: string | null; consent_id: number | null; updated_at: string | null };

export const contactMembershipRoutes = new Hono<AppEnv>().get('/:id/memberships', async (c) => {
  const contact = await rowOr404(c, contacts);
  const orgId = c.var.org.id;
  const [standing, signups] = await Promise.all([
    c.var.db.all<StandingRow>(sql`
      SELECT s.id, s.name, ${memberStatusSql(sql`s.id`, sql`${contact.id}`)} AS status, m.source, m.consent_id, m.updated_at
      FROM ${subscriptions} s LEFT JOIN subscription_members m ON m.subscription_id = s.id AND m.contact_id = ${contact.id}
      WHERE s.org_id = ${orgId} ORDER BY s.priority, s.id`),
    c.var.db
      .select()
      .from(consents)
      .where(sql`${consents.orgId} = ${orgId} AND ${consents.contactId} = ${contact.id}`)
      .orderBy(desc(consents.signedUpAt), asc(consents.id)),
  ]);
  // The rule says 'implied' where the organisation added the contact and no row speaks; NULL where it is no member.
  const memberships: Membership[] = standing
    .filter((s) => s.status !== null)
    .map((s) => ({
      subscription_id: s.id,
      subscription_name: s.name,
      contact_id: contact.id,
      status: (s.status === 'implied' ? 'confirmed' : s.status) as MemberStatus,
      source: (s.status === 'implied' ? 'implied' : s.source) as MemberSource,
      consent_id: s.consent_id,
      updated_at: s.updated_at,
    }));
  const signupsOut: Consent[] = signups.map((s) => ({
    id: s.id,
    form_id: s.formId,
    form_name: s.formName,
    subscription_ids: JSON.parse(s.subscriptionIds) as number[],
    signed_up_at: s.signedUpAt,
    confirmed_at: s.confirmedAt,
    confirm_user_agent: s.confirmUserAgent,
    confirm_ip_hash: s.confirmIpHash,
    expires_at: s.confirmedAt ? null : s.expiresAt,
  }));
  return c.json({ data: { membership: contact.membership, memberships, consents: signupsOut } });
});
