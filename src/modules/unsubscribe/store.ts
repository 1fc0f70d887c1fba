import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { subscriptions, unsubscribes } from '../../db/schema';
import type { Env } from '../../env';
import { publishBroadcastProgress } from '../broadcast/progress';
import { loadBroadcast } from '../broadcast/run-store';
import { rawBatch } from '../crud/raw-batch';
import { broadcastLedgerDb } from '../ledger/registry';
import { countIfChanged } from '../stats/daily';
import type { UnsubscribeReason, UnsubscribeSource } from '../../shared/contracts/unsubscribe';

// The one place unsubscribes are written: by the public page, the RFC 8058 one-click POST and the console's
// re-subscribe. A broadcast's `unsubscribes` counter is then recounted from its rows (recountUnsubscribes), so an
// undo or a repeat never leaves it off by one.

export interface Who {
  orgId: number;
  contactId: number;
}

/** A contact and the message (and its broadcast) an unsubscribe came through, as a checked link names them. */
export interface MessageOf extends Who {
  messageId: number | null;
  broadcastId: number | null;
}

export interface UnsubscribeInput {
  subscriptionId: number;
  reason: UnsubscribeReason | null;
  comment: string | null;
  source: UnsubscribeSource;
}

/** The organisation's categories, in their order. */
export function categoriesOf(db: Database, orgId: number) {
  return db
    .select({ id: subscriptions.id, name: subscriptions.name })
    .from(subscriptions)
    .where(eq(subscriptions.orgId, orgId))
    .orderBy(asc(subscriptions.priority), asc(subscriptions.id));
}

/** The categories the contact has left. */
export async function unsubscribedFrom(db: Database, who: Who): Promise<Set<number>> {
  const rows = await db
    .select({ id: unsubscribes.subscriptionId })
    .from(unsubscribes)
    .where(and(eq(unsubscribes.orgId, who.orgId), eq(unsubscribes.contactId, who.contactId)));
  return new Set(rows.map((r) => r.id));
}

/** What a write changed: whether anything did, and the broadcast whose counter was recounted (if any). */
export interface UnsubscribeChange {
  changed: boolean;
  broadcastId: number | null;
}

/** Leaves a category (a second time changes nothing). */
export async function unsubscribe(db: Database, who: MessageOf, input: UnsubscribeInput): Promise<UnsubscribeChange> {
  const { broadcastId } = who;
  const statements = [
    db.run(sql`INSERT INTO ${unsubscribes} (org_id, contact_id, subscription_id, message_id, broadcast_id, reason, comment, source)
      SELECT ${who.orgId}, ${who.contactId}, s.id, ${who.messageId}, ${broadcastId}, ${input.reason}, ${input.comment}, ${input.source}
      FROM ${subscriptions} s WHERE s.id = ${input.subscriptionId} AND s.org_id = ${who.orgId}
      ON CONFLICT (org_id, subscription_id, contact_id) DO NOTHING`),
    // The organisation's day (src/modules/stats), when the insert just before made a row.
    countIfChanged(db, who.orgId, 'unsubscribes'),
  ];
  const [insert] = await rawBatch(db, statements);
  const changed = (insert.meta.changes ?? 0) > 0;
  return { changed, broadcastId: changed ? broadcastId : null };
}

/** Joins a category again; the broadcast the unsubscribe came from is recounted. */
export async function resubscribe(db: Database, who: Who, subscriptionId: number): Promise<UnsubscribeChange> {
  const [gone] = await db
    .delete(unsubscribes)
    .where(and(eq(unsubscribes.orgId, who.orgId), eq(unsubscribes.contactId, who.contactId), eq(unsubscribes.subscriptionId, subscriptionId)))
    .returning({ broadcastId: unsubscribes.broadcastId });
  if (!gone) return { changed: false, broadcastId: null };
  return { changed: true, broadcastId: gone.broadcastId };
}

/**
 * Writes the unsubscribe count of the broadcasts `changes` touched (counted again in D1, where the unsubscribes are)
 * into the organisation's ledger, which owns a started broadcast's counters (src/modules/ledger), and pushes it to
 * the organisation's consoles. A count is absolute: writing it twice, or late, is corrected by the next one.
 */
export async function recountUnsubscribes(env: Env, db: Database, orgId: number, changes: (UnsubscribeChange | null)[]): Promise<void> {
  const ids = new Set(changes.map((c) => c?.broadcastId).filter((id): id is number => typeof id === 'number'));
  if (ids.size === 0) return;
  for (const id of ids) {
    // Counted where the broadcast's counters are once it started: its ledger.
    const d1Row = await loadBroadcast(db, orgId, id);
    const ledger = d1Row?.startedAt ? await broadcastLedgerDb(env, db, d1Row) : null;
    if (!ledger) continue;
    const [{ n }] = await db
      .select({ n: count() })
      .from(unsubscribes)
      .where(and(eq(unsubscribes.orgId, orgId), eq(unsubscribes.broadcastId, id)));
    await ledger.run(sql`UPDATE broadcasts SET unsubscribes = ${n} WHERE id = ${id} AND org_id = ${orgId}`);
    const b = await loadBroadcast(ledger, orgId, id);
    if (b) await publishBroadcastProgress(env, orgId, b, { thin: false }).catch(() => undefined);
  }
}
