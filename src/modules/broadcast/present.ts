import { inArray, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { AppEnv } from '../../context';
import { broadcasts, senders, subscriptions, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import { actionsFor, type Broadcast, type BroadcastStatus, type BroadcastType, type Recipients } from '../../shared/contracts/broadcast';
import type { TemplateType } from '../../shared/contracts/template';
import { progressOf } from './progress';
import { withLedgerState, type BroadcastRow } from './run-store';
import { requestBroadcastLedger } from '../ledger/request-ledger';

type Ctx = Context<AppEnv>;

/** Broadcast rows in the API shape, with their sender, template and subscription named (one query each per page). */
export async function presentBroadcasts(c: Ctx, d1Rows: BroadcastRow[]): Promise<Broadcast[]> {
  const orgId = c.var.org.id;
  const rows = await withLedgerStates(c, d1Rows);
  const ids = (pick: (r: BroadcastRow) => number | null) => [...new Set(rows.map(pick).filter((id): id is number => id !== null))];
  const senderIds = ids((r) => r.senderId);
  const templateIds = ids((r) => r.templateId);
  const subscriptionIds = ids((r) => r.subscriptionId);
  const scope = <T extends typeof senders | typeof templates | typeof subscriptions>(table: T) => new TenantScope(c.var.db, table, orgId);
  const [senderRows, templateRows, subscriptionRows] = await Promise.all([
    senderIds.length
      ? c.var.db
          .select({ id: senders.id, value: senders.value, name: senders.name })
          .from(senders)
          .where(scope(senders).where(inArray(senders.id, senderIds)))
      : [],
    templateIds.length
      ? c.var.db
          .select({ id: templates.id, name: templates.name, type: templates.type })
          .from(templates)
          .where(scope(templates).where(inArray(templates.id, templateIds)))
      : [],
    subscriptionIds.length
      ? c.var.db
          .select({ id: subscriptions.id, name: subscriptions.name })
          .from(subscriptions)
          .where(scope(subscriptions).where(sql`${subscriptions.id} IN (SELECT value FROM json_each(${JSON.stringify(subscriptionIds)}))`))
      : [],
  ]);
  const sender = new Map(senderRows.map((s) => [s.id, s]));
  const template = new Map(templateRows.map((t) => [t.id, { ...t, type: t.type as TemplateType }]));
  const subscription = new Map(subscriptionRows.map((s) => [s.id, s]));
  return rows.map((b) => ({
    ...progressOf(b),
    name: b.name,
    alias: b.alias,
    note: b.note,
    type: b.type as BroadcastType,
    sender_id: b.senderId,
    template_id: b.templateId,
    subscription_id: b.subscriptionId,
    do_not_unsubscribe: b.doNotUnsubscribe,
    skip_unsubscribed: b.skipUnsubscribed,
    track_opens: b.trackOpens,
    track_clicks: b.trackClicks,
    sleep: b.sleep,
    delayed_at: b.delayedAt,
    immediate: b.delayedAt === null,
    contacts: b.contacts as Recipients,
    opens: b.opens,
    clicks: b.clicks,
    unsubscribes: b.unsubscribes,
    sender: (b.senderId && sender.get(b.senderId)) || null,
    template: (b.templateId && template.get(b.templateId)) || null,
    subscription: (b.subscriptionId && subscription.get(b.subscriptionId)) || null,
    actions: actionsFor(b.status as BroadcastStatus, b.failed),
    created_at: b.createdAt,
  }));
}

/**
 * The rows with the status and counters of the started ones as their ledger has them now (one call for the page):
 * D1's copy is a projection that may be up to a second behind (src/modules/ledger/projection.ts).
 */
async function withLedgerStates(c: Ctx, rows: BroadcastRow[]): Promise<BroadcastRow[]> {
  const started = rows.filter((r) => r.startedAt);
  if (started.length === 0) return rows;
  // One call per ledger the page's broadcasts live in (one, unless the organisation has several generations).
  const byGeneration = new Map<number, BroadcastRow[]>();
  for (const r of started) byGeneration.set(r.ledgerGeneration ?? 0, [...(byGeneration.get(r.ledgerGeneration ?? 0) ?? []), r]);
  const runs = await Promise.all(
    [...byGeneration.values()].map(async (group) => {
      const ledger = await requestBroadcastLedger(c, group[0]);
      return ledger
        .select()
        .from(broadcasts)
        .where(sql`${broadcasts.id} IN (SELECT value FROM json_each(${JSON.stringify(group.map((r) => r.id))})) AND ${broadcasts.orgId} = ${c.var.org.id}`);
    }),
  );
  const byId = new Map(runs.flat().map((r) => [r.id, r]));
  return rows.map((r) => withLedgerState(r, byId.get(r.id)));
}
