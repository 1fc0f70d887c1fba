import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { blacklist, consents, smsOptOuts, softBounces, subscriptions, unsubscribes } from '../../../db/schema';
import type { ExportSubject } from './export-subject';

// The contact's records in D1 besides the contact itself: consents, unsubscribes, and the suppressions of its
// addresses. Each is a handful of rows (one per sign-up, subscription or address), read whole.

const valuesOf = (subject: ExportSubject, type?: 'email' | 'phone') =>
  JSON.stringify(subject.addresses.filter((a) => !type || a.type === type).map((a) => a.value));

/** Every sign-up through a form: which form, when, and the user agent and keyed IP hash of the sign-up and its confirmation. */
export function consentRecords(db: Database, subject: ExportSubject) {
  return db
    .select({
      id: consents.id,
      form_id: consents.formId,
      form_name: consents.formName,
      subscription_ids: sql<string>`${consents.subscriptionIds}`.mapWith((v: string) => JSON.parse(v) as number[]),
      signed_up_at: consents.signedUpAt,
      signup_user_agent: consents.signupUserAgent,
      signup_ip_hash: consents.signupIpHash,
      confirmed_at: consents.confirmedAt,
      confirm_user_agent: consents.confirmUserAgent,
      confirm_ip_hash: consents.confirmIpHash,
      expires_at: consents.expiresAt,
      created_at: consents.createdAt,
    })
    .from(consents)
    .where(and(eq(consents.orgId, subject.orgId), eq(consents.contactId, subject.contactId)))
    .orderBy(asc(consents.signedUpAt), asc(consents.id));
}

/** Each subscription the contact left: why, in their words, from which message and broadcast, and when. */
export function unsubscribeRecords(db: Database, subject: ExportSubject) {
  return db
    .select({
      subscription_id: unsubscribes.subscriptionId,
      subscription: subscriptions.name,
      reason: unsubscribes.reason,
      comment: unsubscribes.comment,
      source: unsubscribes.source,
      message_id: unsubscribes.messageId,
      broadcast_id: unsubscribes.broadcastId,
      created_at: unsubscribes.createdAt,
      updated_at: unsubscribes.updatedAt,
    })
    .from(unsubscribes)
    .leftJoin(subscriptions, and(eq(subscriptions.id, unsubscribes.subscriptionId), eq(subscriptions.orgId, subject.orgId)))
    .where(and(eq(unsubscribes.orgId, subject.orgId), eq(unsubscribes.contactId, subject.contactId)))
    .orderBy(asc(unsubscribes.createdAt), asc(unsubscribes.id));
}

/** The blacklist entries, SMS opt-outs and soft-bounce counts of the contact's addresses (each by its unique key). */
export async function suppressionRecords(db: Database, subject: ExportSubject) {
  const all = valuesOf(subject);
  const typed = JSON.stringify(subject.addresses);
  const [blacklisted, optOuts, bounces] = await Promise.all([
    db
      .select({
        type: blacklist.type,
        value: blacklist.value,
        reason: blacklist.reason,
        info: blacklist.info,
        message_id: blacklist.messageId,
        created_at: blacklist.createdAt,
      })
      .from(blacklist)
      .where(
        and(
          eq(blacklist.orgId, subject.orgId),
          // Row-value IN: served by the unique index (org_id, type, value).
          sql`(${blacklist.type}, ${blacklist.value}) IN (SELECT json_extract(value, '$.type'), json_extract(value, '$.value') FROM json_each(${typed}))`,
        ),
      )
      .orderBy(asc(blacklist.id)),
    db
      .select({ phone: smsOptOuts.phone, keyword: smsOptOuts.keyword, created_at: smsOptOuts.createdAt })
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.orgId, subject.orgId), sql`${smsOptOuts.phone} IN (SELECT value FROM json_each(${valuesOf(subject, 'phone')}))`))
      .orderBy(asc(smsOptOuts.id)),
    db
      .select({ address: softBounces.address, count: softBounces.count, since: softBounces.since, last_message_id: softBounces.lastMessageId })
      .from(softBounces)
      .where(and(eq(softBounces.orgId, subject.orgId), sql`${softBounces.address} IN (SELECT value FROM json_each(${all}))`))
      .orderBy(asc(softBounces.address)),
  ]);
  return { blacklist: blacklisted, sms_opt_outs: optOuts, soft_bounces: bounces };
}
