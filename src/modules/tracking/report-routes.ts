import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { broadcastLinks, broadcasts, contacts, messages, subscriptions, trackingEvents, unsubscribes } from '../../db/schema';
import type { HitClass, HitReason, LinkClicks, MessageEngagement } from '../../shared/contracts/tracking';
import type { BroadcastUnsubscribe, UnsubscribeReason, UnsubscribeSource } from '../../shared/contracts/unsubscribe';
import { rowOr404 } from '../crud/rows';
import { notFound } from '../../lib/api-error';
import { parseId } from '../../lib/validate';
import { requestBroadcastLedger, requestMessageLedger } from '../ledger/request-ledger';

// What the console shows of engagement: a broadcast's clicks per link and its unsubscribes, and one message's
// links, latest hits and unsubscribe. Each reads the kept counters or one message's own rows, never a scan.

/** How many of a message's hits its view lists (newest first); the counters cover all of them. */
export const MESSAGE_HITS_SHOWN = 50;
/** How many of a broadcast's unsubscribes its view lists (newest first); its counter has the total. */
export const BROADCAST_UNSUBSCRIBES_SHOWN = 200;

/** GET /broadcast/{id}/clicks and /broadcast/{id}/unsubscribes. */
export const broadcastReportRoutes = new Hono<AppEnv>()
  .get('/:id/clicks', async (c) => {
    const b = await rowOr404(c, broadcasts);
    // Counted where the hits are: the broadcast's ledger (src/modules/ledger).
    const ledger = await requestBroadcastLedger(c, b);
    const rows = await ledger
      .select()
      .from(broadcastLinks)
      .where(and(eq(broadcastLinks.orgId, c.var.org.id), eq(broadcastLinks.broadcastId, b.id)))
      .orderBy(asc(broadcastLinks.linkIndex));
    const data: LinkClicks[] = rows.map((r) => ({
      link_index: r.linkIndex,
      url: r.url,
      clicks: r.clicks,
      clicks_unique: r.clicksUnique,
      human_clicks: r.humanClicks,
      human_clicks_unique: r.humanClicksUnique,
    }));
    return c.json({ data });
  })
  .get('/:id/unsubscribes', async (c) => {
    const b = await rowOr404(c, broadcasts);
    const rows = await c.var.db
      .select({
        contactId: unsubscribes.contactId,
        name: contacts.name,
        subscription: subscriptions.name,
        reason: unsubscribes.reason,
        comment: unsubscribes.comment,
        source: unsubscribes.source,
        createdAt: unsubscribes.createdAt,
      })
      .from(unsubscribes)
      .leftJoin(contacts, and(eq(contacts.id, unsubscribes.contactId), eq(contacts.orgId, unsubscribes.orgId)))
      // Which category: one person can leave several through one message (one-click, a spam complaint).
      .leftJoin(subscriptions, and(eq(subscriptions.id, unsubscribes.subscriptionId), eq(subscriptions.orgId, unsubscribes.orgId)))
      .where(and(eq(unsubscribes.orgId, c.var.org.id), eq(unsubscribes.broadcastId, b.id)))
      .orderBy(desc(unsubscribes.createdAt))
      .limit(BROADCAST_UNSUBSCRIBES_SHOWN);
    const data: BroadcastUnsubscribe[] = rows.map((r) => ({
      contact_id: r.contactId,
      contact_name: r.name,
      subscription_name: r.subscription,
      reason: r.reason as UnsubscribeReason | null,
      comment: r.comment,
      source: r.source as UnsubscribeSource | null,
      created_at: r.createdAt,
    }));
    return c.json({ data });
  });

/** GET /message/{id}/engagement. */
export const messageReportRoutes = new Hono<AppEnv>().get('/:id/engagement', async (c) => {
  // The message and its hits are in the ledger its id names (src/modules/ledger); the unsubscribes in D1.
  const id = parseId(c.req.param('id'));
  const ledger = id ? await requestMessageLedger(c, id) : null;
  if (!ledger) throw notFound();
  const m = await rowOr404(c, messages, 'id', ledger);
  const orgId = c.var.org.id;
  const mine = and(eq(trackingEvents.orgId, orgId), eq(trackingEvents.messageId, m.id));
  const [links, hits, unsubscribe] = await Promise.all([
    ledger
      .select({
        linkIndex: trackingEvents.linkIndex,
        url: sql<string>`min(${trackingEvents.url})`,
        clicks: sql<number>`count(*)`,
        humanClicks: sql<number>`sum(${trackingEvents.class} = 'human')`,
        first: sql<string>`min(${trackingEvents.at})`,
      })
      .from(trackingEvents)
      .where(and(mine, eq(trackingEvents.kind, 'click'), sql`${trackingEvents.linkIndex} >= 0`))
      .groupBy(trackingEvents.linkIndex)
      .orderBy(asc(trackingEvents.linkIndex)),
    ledger.select().from(trackingEvents).where(mine).orderBy(desc(trackingEvents.at)).limit(MESSAGE_HITS_SHOWN),
    c.var.db
      .select({
        subscriptionId: unsubscribes.subscriptionId,
        name: subscriptions.name,
        reason: unsubscribes.reason,
        comment: unsubscribes.comment,
        createdAt: unsubscribes.createdAt,
      })
      .from(unsubscribes)
      .leftJoin(subscriptions, eq(subscriptions.id, unsubscribes.subscriptionId))
      .where(and(eq(unsubscribes.orgId, orgId), eq(unsubscribes.messageId, m.id)))
      .limit(1),
  ]);
  const data: MessageEngagement = {
    links: links.map((l) => ({
      link_index: l.linkIndex ?? 0,
      url: l.url,
      clicks: Number(l.clicks),
      human_clicks: Number(l.humanClicks ?? 0),
      first_clicked_at: l.first,
    })),
    hits: hits.map((h) => ({
      kind: h.kind as 'open' | 'click',
      class: h.class as HitClass,
      reason: h.reason as HitReason,
      url: h.url,
      at: h.at,
      user_agent: h.userAgent,
      as_organization: h.asOrganization,
    })),
    unsubscribe: unsubscribe[0]
      ? {
          subscription_id: unsubscribe[0].subscriptionId,
          subscription_name: unsubscribe[0].name,
          reason: unsubscribe[0].reason,
          comment: unsubscribe[0].comment,
          created_at: unsubscribe[0].createdAt,
        }
      : null,
  };
  return c.json({ data });
});
