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
import { memberStatusSql } from '../membership/rules';

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
 * The person joins a category from the preferences page: the unsubscribe undone (resubscribe) and, for a contact that
 * signed up through a form ('explicit': a member only where a row says confirmed), the membership confirmed on their
 * own word (source 'preferences'). A pending membership stays pending: the confirmation mail confirms it.
 */
export async function joinByPerson(db: Database, who: Who, subscriptionId: number): Promise<UnsubscribeChange> {
  const change = await resubscribe(db, who, subscriptionId);
  const confirmed = await db.run(sql`INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source)
    SELECT ct.org_id, s.id, ct.id, 'confirmed', 'preferences'
    FROM contacts ct JOIN ${subscriptions} s ON s.id = ${subscriptionId} AND s.org_id = ct.org_id
    WHERE ct.id = ${who.contactId} AND ct.org_id = ${who.orgId} AND ct.membership = 'explicit'
    ON CONFLICT (subscription_id, contact_id) DO UPDATE SET status = 'confirmed', source = 'preferences', expires_at = NULL,
      updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
    WHERE status = 'unsubscribed'`);
  return { changed: change.changed || (confirmed.meta.changes ?? 0) > 0, broadcastId: change.broadcastId };
}

/** The sources an organisation gives its own membership writes (src/modules/membership/organisation-write.ts). */
export type OrganisationSource = 'import' | 'console' | 'api';

/**
 * The organisation confirms the contact's membership (it collected the consent elsewhere): the row says 'confirmed'
 * with the organisation's source (an implied contact gets one too, so the source is on record; a pending one stops
 * being pending, and an explicit contact is no longer held), and the unsubscribe, if any, is undone. A row already
 * confirmed keeps its source and consent. The row is written before the unsubscribe goes, so the rejoin trigger finds
 * it confirmed and leaves the organisation's source in place. One batch: both or neither.
 */
export async function joinByOrganisation(db: Database, who: Who, subscriptionId: number, source: OrganisationSource): Promise<UnsubscribeChange> {
  const [confirmed, gone] = await rawBatch(db, [
    db.run(sql`INSERT INTO subscription_members (org_id, subscription_id, contact_id, status, source)
      SELECT ct.org_id, s.id, ct.id, 'confirmed', ${source}
      FROM contacts ct JOIN ${subscriptions} s ON s.id = ${subscriptionId} AND s.org_id = ct.org_id
      WHERE ct.id = ${who.contactId} AND ct.org_id = ${who.orgId}
      ON CONFLICT (subscription_id, contact_id) DO UPDATE SET status = 'confirmed', source = excluded.source, expires_at = NULL,
        updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
      WHERE status <> 'confirmed'`),
    db.run(sql`DELETE FROM ${unsubscribes} WHERE org_id = ${who.orgId} AND contact_id = ${who.contactId} AND subscription_id = ${subscriptionId}
      RETURNING broadcast_id`),
  ]);
  const left = gone.results[0] as { broadcast_id: number | null } | undefined;
  return { changed: (confirmed.meta.changes ?? 0) > 0 || left !== undefined, broadcastId: left?.broadcast_id ?? null };
}

/**
 * The organisation takes the contact out of a category: an unsubscribe like any other (its event, the day's count),
 * with the organisation's source on it and on the membership row the trigger wrote.
 */
export async function leaveByOrganisation(db: Database, who: Who, subscriptionId: number, source: OrganisationSource): Promise<UnsubscribeChange> {
  const change = await unsubscribe(db, { ...who, messageId: null, broadcastId: null }, { subscriptionId, reason: null, comment: null, source });
  if (change.changed) {
    await db.run(sql`UPDATE subscription_members SET source = ${source}
      WHERE subscription_id = ${subscriptionId} AND contact_id = ${who.contactId} AND org_id = ${who.orgId} AND status = 'unsubscribed'`);
  }
  return change;
}

/** The contact's standing in each category: left (an unsubscribe), pending, or a member by the membership rule. */
export type CategoryStanding = 'subscribed' | 'pending' | 'unsubscribed';

/**
 * Each category's standing for the contact (src/modules/membership/rules.ts): a left category is unsubscribed; a pending
 * row keeps it out; otherwise an 'implied' contact is a member unless a row says otherwise, an 'explicit' one only
 * where a row says confirmed.
 */
export async function standingsOf(db: Database, who: Who, categoryIds: number[]): Promise<Map<number, CategoryStanding>> {
  // The membership rule's own definition (src/modules/membership/rules.ts); an unsubscribe is an 'unsubscribed' row.
  const rows = await db.all<{ id: number; status: string | null }>(sql`
    SELECT s.id, ${memberStatusSql(sql`s.id`, sql`${who.contactId}`)} AS status FROM ${subscriptions} s
    WHERE s.org_id = ${who.orgId} AND s.id IN (SELECT value FROM json_each(${JSON.stringify(categoryIds)}))`);
  const status = new Map(rows.map((r) => [r.id, r.status]));
  const standing = (id: number): CategoryStanding => {
    const row = status.get(id);
    if (row === 'pending') return 'pending';
    return row === 'confirmed' || row === 'implied' ? 'subscribed' : 'unsubscribed';
  };
  return new Map(categoryIds.map((id) => [id, standing(id)]));
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
