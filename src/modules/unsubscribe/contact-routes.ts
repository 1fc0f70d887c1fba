import { and, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { blacklist, contacts, smsOptOuts, subscriptions, unsubscribes } from '../../db/schema';
import { notFound } from '../../lib/api-error';
import { parseId } from '../../lib/validate';
import type { SuppressionReason } from '../../shared/contracts/suppression';
import type { ContactOptOuts, ContactSuppression, UnsubscribeReason, UnsubscribeSource } from '../../shared/contracts/unsubscribe';
import { liftSuppression } from '../bounce/suppress';
import { recordActivity } from '../activity-log/record';
import { rowOr404 } from '../crud/rows';
import { recountUnsubscribes, resubscribe } from './store';
import { announceAfter } from '../event/announce';

// A contact's unsubscribes, SMS opt-outs and suppressed addresses, as the contact's page shows them; the
// organisation's re-subscribe and lifting a suppression (both recorded in the activity log). A STOP is undone only by
// the recipient (START): the provider blocks the number until then, so the console shows it but cannot lift it.

/** The contact's addresses (type, value) in the organisation: what its blacklist entries are matched with. */
const addressesOf = (orgId: number, contactId: number) =>
  sql`(${blacklist.type}, ${blacklist.value}) IN (SELECT type, value FROM contact_addresses WHERE org_id = ${orgId} AND contact_id = ${contactId})`;

export const contactOptOutRoutes = new Hono<AppEnv>()
  .get('/:id/unsubscribes', async (c) => {
    const contact = await rowOr404(c, contacts);
    const orgId = c.var.org.id;
    const [left, stopped, suppressed] = await Promise.all([
      c.var.db
        .select({
          subscriptionId: unsubscribes.subscriptionId,
          name: subscriptions.name,
          reason: unsubscribes.reason,
          comment: unsubscribes.comment,
          source: unsubscribes.source,
          messageId: unsubscribes.messageId,
          broadcastId: unsubscribes.broadcastId,
          createdAt: unsubscribes.createdAt,
        })
        .from(unsubscribes)
        .innerJoin(subscriptions, eq(subscriptions.id, unsubscribes.subscriptionId))
        .where(and(eq(unsubscribes.orgId, orgId), eq(unsubscribes.contactId, contact.id)))
        .orderBy(desc(unsubscribes.createdAt)),
      c.var.db
        .select({ phone: smsOptOuts.phone, keyword: smsOptOuts.keyword, createdAt: smsOptOuts.createdAt })
        .from(smsOptOuts)
        .where(
          and(
            eq(smsOptOuts.orgId, orgId),
            sql`${smsOptOuts.phone} IN (SELECT value FROM contact_addresses WHERE org_id = ${orgId} AND contact_id = ${contact.id} AND type = 'phone')`,
          ),
        ),
      c.var.db
        .select()
        .from(blacklist)
        .where(and(eq(blacklist.orgId, orgId), addressesOf(orgId, contact.id)))
        .orderBy(desc(blacklist.createdAt)),
    ]);
    const data: ContactOptOuts = {
      unsubscribes: left.map((u) => ({
        subscription_id: u.subscriptionId,
        subscription_name: u.name,
        reason: u.reason as UnsubscribeReason | null,
        comment: u.comment,
        source: u.source as UnsubscribeSource | null,
        message_id: u.messageId,
        broadcast_id: u.broadcastId,
        created_at: u.createdAt,
      })),
      sms_opt_outs: stopped.map((s) => ({ phone: s.phone, keyword: s.keyword, created_at: s.createdAt })),
      suppressions: suppressed.map(
        (b): ContactSuppression => ({
          id: b.id,
          type: b.type as ContactSuppression['type'],
          value: b.value,
          reason: b.reason as SuppressionReason | null,
          info: b.info,
          message_id: b.messageId,
          created_at: b.createdAt,
        }),
      ),
    };
    return c.json({ data });
  })
  .delete('/:id/unsubscribes/:subscriptionId', async (c) => {
    const contact = await rowOr404(c, contacts);
    const subscriptionId = parseId(c.req.param('subscriptionId'));
    const [subscription] = subscriptionId
      ? await c.var.db
          .select({ id: subscriptions.id, name: subscriptions.name })
          .from(subscriptions)
          .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.orgId, c.var.org.id)))
      : [];
    const change = subscription ? await resubscribe(c.var.db, { orgId: c.var.org.id, contactId: contact.id }, subscription.id) : null;
    if (!subscription || !change?.changed) throw notFound();
    await recountUnsubscribes(c.env, c.var.db, c.var.org.id, [change]);
    announceAfter(c);
    await recordActivity(c, 'contact', contact.id, 'update', [{ field: `subscription: ${subscription.name}`, previous: 'unsubscribed', next: 'subscribed' }]);
    return c.body(null, 204);
  })
  .delete('/:id/suppressions/:entryId', async (c) => {
    const contact = await rowOr404(c, contacts);
    const entryId = parseId(c.req.param('entryId'));
    const orgId = c.var.org.id;
    // Only an entry for one of this contact's addresses: the blacklist page lifts any other.
    const [entry] = entryId
      ? await c.var.db
          .select()
          .from(blacklist)
          .where(and(eq(blacklist.id, entryId), eq(blacklist.orgId, orgId), addressesOf(orgId, contact.id)))
      : [];
    if (!entry || !(await liftSuppression(c.var.db, orgId, entry.id))) throw notFound();
    announceAfter(c);
    await recordActivity(c, 'contact', contact.id, 'update', [
      { field: `suppression: ${entry.value}`, previous: entry.info ?? entry.reason ?? 'blacklisted', next: 'lifted' },
    ]);
    return c.body(null, 204);
  });
