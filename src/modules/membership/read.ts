import { asc, desc, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { consents, subscriptions } from '../../db/schema';
import type { Consent, ContactMemberships, ContactMembership, MemberSource, MemberStatus, Membership } from '../../shared/contracts/membership';
import { memberStatusSql } from './rules';

type StandingRow = { id: number; name: string; status: string | null; source: string | null; consent_id: number | null; updated_at: string | null };

/** The contact the memberships are read for: a row of the organisation, already checked. */
export interface MemberContact {
  id: number;
  orgId: number;
  membership: string;
}

/**
 * The contact's standing in every subscription of the organisation (an 'implied' row where the organisation added the
 * contact and no row says otherwise, by the rule of rules.ts) and the consent of each of its sign-ups: what GET and
 * PUT /contact/{id}/memberships answer and the contact's page shows.
 */
export async function contactMembershipsOf(db: Database, contact: MemberContact): Promise<ContactMemberships> {
  const orgId = contact.orgId;
  const [standing, signups] = await Promise.all([
    db.all<StandingRow>(sql`
      SELECT s.id, s.name, ${memberStatusSql(sql`s.id`, sql`${contact.id}`)} AS status, m.source, m.consent_id, m.updated_at
      FROM ${subscriptions} s LEFT JOIN subscription_members m ON m.subscription_id = s.id AND m.contact_id = ${contact.id}
      WHERE s.org_id = ${orgId} ORDER BY s.priority, s.id`),
    db
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
      ...presentStanding(s.status!, s.source),
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
  return { membership: contact.membership as ContactMembership, memberships, consents: signupsOut };
}

/** memberStatusSql's answer as the API shows it: 'implied' is a confirmed member whose source is 'implied'. */
export function presentStanding(status: string, source: string | null): { status: MemberStatus; source: MemberSource } {
  if (status === 'implied') return { status: 'confirmed', source: 'implied' };
  return { status: status as MemberStatus, source: source as MemberSource };
}
