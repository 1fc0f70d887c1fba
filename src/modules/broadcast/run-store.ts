import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, messages } from '../../db/schema';
import { SKIP_REASONS, type BroadcastType, type Recipients } from '../../shared/contracts/broadcast';
import { rowMapper } from '../../db/row-mapper';
import { rawBatch } from '../crud/raw-batch';
import { releaseLostStatement, skipQueuedStatement } from '../sending/claim';
import { LEDGER_OWNED_KEYS } from '../ledger/projection';
import { recipientPage, type RecipientRule, walkTagLookup } from './recipients';
import type { TagLookup } from '../contact/filters';
import { keptCountQuery } from '../stats/list-counts';
import type { BroadcastSnapshot } from './snapshot';

// The SQL behind the BroadcastRunner's steps that are not status changes (those are in lifecycle.ts): the pages of
// recipients, the queue of messages, the cancelled rows. Every write is conditional on the state it expects, and
// the counters move in the same transaction as the rows they count.

export type BroadcastRow = typeof broadcasts.$inferSelect;

/** A broadcasts row as a raw statement returns it (snake_case, 0/1 booleans, JSON as text) in drizzle's shape. */
export const fromRaw: (raw: Record<string, unknown>) => BroadcastRow = rowMapper(broadcasts);

const nowIso = () => new Date().toISOString();

/** The recipient rule of a broadcast row. */
export function ruleOf(b: BroadcastRow): RecipientRule {
  return {
    orgId: b.orgId,
    type: b.type as BroadcastType,
    recipients: b.contacts as Recipients,
    subscriptionId: b.doNotUnsubscribe ? null : b.subscriptionId,
    skipUnsubscribed: b.skipUnsubscribed,
  };
}

/** The broadcast as stored now in `db` (D1, or the ledger's copy of a started broadcast). */
export async function loadBroadcast(db: Database, orgId: number, id: number): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.id, id), eq(broadcasts.orgId, orgId)));
  return row;
}

/**
 * A started broadcast's row in its ledger, which holds its status and counters from the start on (lifecycle.ts):
 * copied from D1's row the first time it is asked for (after markStarted). Undefined for one that has not started.
 */
export async function ledgerRun(ledger: Database, d1Row: BroadcastRow): Promise<BroadcastRow | undefined> {
  if (!d1Row.startedAt) return undefined;
  const held = await loadBroadcast(ledger, d1Row.orgId, d1Row.id);
  if (held) return held;
  await ledger.insert(broadcasts).values(d1Row).onConflictDoNothing();
  return loadBroadcast(ledger, d1Row.orgId, d1Row.id);
}

/** D1's row of a broadcast with what its ledger owns (status, counters) as the ledger has it now. */
export function withLedgerState(d1Row: BroadcastRow, run: BroadcastRow | undefined): BroadcastRow {
  if (!run) return d1Row;
  const merged = { ...d1Row } as Record<string, unknown>;
  for (const key of LEDGER_OWNED_KEYS) merged[key] = (run as Record<string, unknown>)[key];
  merged.rev = run.rev;
  return merged as BroadcastRow;
}

/** The ledger a broadcast lives in, from its D1 row (the caller's way to it: a request's, the runner's, a test's). */
export type LedgerOf = (row: BroadcastRow) => Promise<Database | null>;

/** The broadcast as the console should see it: D1's row, and for a started one its ledger's status and counters. */
export async function currentBroadcast(db: Database, ledgerOf: LedgerOf, orgId: number, id: number): Promise<BroadcastRow | undefined> {
  const row = await loadBroadcast(db, orgId, id);
  if (!row?.startedAt) return row;
  const ledger = await ledgerOf(row);
  return ledger ? withLedgerState(row, await ledgerRun(ledger, row)) : row;
}

/**
 * Writes the message rows of the next page of recipients (queued, or skipped with the reason) into the ledger and
 * moves the cursor, the total and the skipped count past them, in one ledger transaction: the page is read from D1
 * (the audience) and written as one JSON value. A page walked again (the object restarted before it saw the answer)
 * inserts nothing (unique broadcast + contact) and counts nothing (the cursor moved). Answers whether the walk is
 * complete. `cancelled`: the broadcast was cancelled before its walk ended, so every recipient of the page is written
 * skipped (its own reason, or "cancelled"): a cancel accounts for every recipient.
 */
export async function writeRecipientPage(
  db: Database,
  ledger: Database,
  b: BroadcastRow,
  pageSize: number,
  { cancelled = false } = {},
): Promise<{ enumerated: boolean }> {
  const snapshot = b.snapshot as BroadcastSnapshot;
  const type = b.type === 'phone' ? 'sms' : 'email';
  const page = await db.all<{ id: number; name: string | null; address: string | null; reason: string | null }>(
    sql`SELECT p.id, p.name, p.address, p.reason FROM (${recipientPage(ruleOf(b), b.cursor, b.lastContactId, pageSize, await tagLookupOf(db, b, pageSize))}) AS p`,
  );
  const rows = JSON.stringify(page.map((p) => [p.id, p.address, cancelled ? (p.reason ?? SKIP_REASONS.cancelled) : p.reason, p.name]));
  const inRange = sql`${messages.broadcastId} = ${b.id} AND ${messages.contactId} > ${b.cursor}`;
  const [, counted] = await rawBatch(ledger, [
    ledger.run(sql`INSERT INTO ${messages} (org_id, type, status, sender_id, template_id, contact_id, broadcast_id, from_address, from_name, to_address, body, error, contact_name)
      SELECT ${b.orgId}, ${type}, CASE WHEN p.value ->> 2 IS NULL THEN 'queued' ELSE 'skipped' END, ${snapshot.sender.id}, ${snapshot.template.id}, p.value ->> 0, ${b.id},
        ${snapshot.sender.value}, ${type === 'email' ? snapshot.sender.name : null}, coalesce(p.value ->> 1, ''), '', p.value ->> 2, p.value ->> 3
      FROM json_each(${rows}) AS p WHERE true
      ON CONFLICT (broadcast_id, contact_id) DO NOTHING`),
    ledger.run(sql`UPDATE ${broadcasts} SET
        cursor = coalesce((SELECT max(${messages.contactId}) FROM ${messages} WHERE ${messages.broadcastId} = ${b.id}), cursor),
        total = total + (SELECT count(*) FROM ${messages} WHERE ${inRange}),
        skipped = skipped + (SELECT count(*) FROM ${messages} WHERE ${inRange} AND ${messages.status} = 'skipped'),
        enumerated = NOT EXISTS (SELECT 1 FROM ${messages} WHERE ${inRange}),
        updated_at = ${nowIso()}
      WHERE id = ${b.id} AND org_id = ${b.orgId} AND cursor = ${b.cursor}
      RETURNING enumerated`),
  ]);
  const row = counted.results[0] as { enumerated: number } | undefined;
  return { enumerated: row ? Number(row.enumerated) === 1 : false };
}

/** How this broadcast's walk looks up its tag filter: its planned total against the organisation's contacts (walkTagLookup). */
async function tagLookupOf(db: Database, b: BroadcastRow, pageSize: number): Promise<TagLookup> {
  if (!ruleOf(b).recipients.filter.tags?.length || !b.plannedTotal) return 'list';
  const [kept] = await keptCountQuery(db, b.orgId, { list: 'contacts', key: 0 });
  return walkTagLookup(b.plannedTotal, Number(kept?.total ?? 0), pageSize);
}

/** Queued messages of the broadcast after message id `afterId`, in id order: what to put on the send queue next. */
export async function queuedAfter(db: Database, b: BroadcastRow, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.orgId, b.orgId), eq(messages.broadcastId, b.id), eq(messages.status, 'queued'), sql`${messages.id} > ${afterId}`))
    .orderBy(messages.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Messages of the broadcast stranded on their way: queued but untouched since `queuedBefore` (their queue message
 * was lost), or claimed (sending) by a delivery whose lease ended before `leaseEndedBefore` (it died mid-send).
 */
export async function strandedRows(
  db: Database,
  b: BroadcastRow,
  before: { queuedBefore: string; leaseEndedBefore: string },
  limit: number,
): Promise<number[]> {
  const rows = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.orgId, b.orgId),
        eq(messages.broadcastId, b.id),
        or(
          and(eq(messages.status, 'queued'), lt(messages.updatedAt, before.queuedBefore)),
          and(eq(messages.status, 'sending'), lt(messages.updatedAt, before.leaseEndedBefore)),
        ),
      ),
    )
    .orderBy(messages.id)
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Messages of the broadcast whose queue message died with the last runtime (src/modules/sending/queue-epoch.ts):
 * queued up to `dispatchedUpTo` or claimed, untouched since the boot `lostBefore`; they are made queued again and
 * stamped now (claim.ts releaseLostStatement), `limit` at a time. Answers their ids, for the send queue.
 */
export async function releaseLost(db: Database, b: BroadcastRow, lostBefore: number, dispatchedUpTo: number, limit: number): Promise<number[]> {
  const rows = await db.all<{ id: number }>(releaseLostStatement({ orgId: b.orgId, broadcastId: b.id }, lostBefore, dispatchedUpTo, limit));
  return rows.map((r) => Number(r.id));
}

/**
 * A cancelled broadcast's messages that never went out become skipped ("cancelled"), `limit` at a time, with
 * the count in the same transaction. Answers how many it changed (0: nothing left).
 */
export async function skipCancelled(db: Database, b: BroadcastRow, limit: number): Promise<number> {
  const pending = sql`SELECT ${messages.id} FROM ${messages} WHERE ${messages.orgId} = ${b.orgId} AND ${messages.broadcastId} = ${b.id} AND ${messages.status} = 'queued' ORDER BY ${messages.id} LIMIT ${limit}`;
  const now = nowIso();
  const [counted] = await rawBatch(db, [
    db.run(sql`UPDATE ${broadcasts} SET skipped = skipped + (SELECT count(*) FROM (${pending})), updated_at = ${now} WHERE id = ${b.id} AND org_id = ${b.orgId}
      RETURNING (SELECT count(*) FROM (${pending})) AS changed`),
    skipQueuedStatement(db, pending, SKIP_REASONS.cancelled, now),
  ]);
  return Number((counted.results[0] as { changed?: number } | undefined)?.changed ?? 0);
}
