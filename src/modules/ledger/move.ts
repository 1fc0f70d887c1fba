import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { broadcastLinks, messages, trackingEvents } from '../../db/schema';
import type { Env } from '../../env';
import { rawBatch } from '../crud/raw-batch';
import { ledgerDb } from './ledger-db';
import { orgLedger, orgLedgerDb } from './registry';
import { markSingleWritten } from './singles';

// The move of the messages made before the ledger (D1's messages, tracking_events and broadcast_links) into each
// organisation's ledger, by the cron a page at a time until D1 has none left. A page is copied with its ids (so API
// ids, tracking and unsubscribe tokens keep resolving: every id made in D1 is below the ledgers' blocks, ids.ts),
// counted in the ledger, and only then deleted from D1; a page copied twice (a run cut off before the delete) inserts
// nothing the second time. Started broadcasts need no move: their ledger copies D1's row the first time it is
// asked for (run-store.ts, ledgerRun), and D1's row was their one writer until then.

/** Messages copied per page: one D1 read, one ledger transaction, one D1 delete. */
export const MOVE_PAGE = 500;

const names = (table: SQLiteTable) => Object.values(getTableColumns(table)).map((c) => c.name);

/** INSERT OR IGNORE of rows given as one JSON array of objects, into the ledger's table of the same name. */
function copyStatement(ledger: Database, table: SQLiteTable, tableName: string, rows: unknown[]) {
  const columns = names(table);
  return ledger.run(sql`INSERT OR IGNORE INTO ${sql.raw(tableName)} (${sql.raw(columns.join(', '))})
    SELECT ${sql.raw(columns.map((c) => `value ->> '${c}'`).join(', '))} FROM json_each(${JSON.stringify(rows)})`);
}

/**
 * Moves one page of the organisation's D1 messages (with their events), or of those `only` picks of them; answers how
 * many left D1.
 */
export async function moveMessagePage(env: Env, db: Database, orgId: number, page = MOVE_PAGE, only?: SQL): Promise<number> {
  const rows = await db.all<Record<string, unknown> & { id: number }>(
    sql`SELECT * FROM messages WHERE org_id = ${orgId} ${only ? sql`AND (${only})` : sql``} ORDER BY id LIMIT ${page}`,
  );
  if (rows.length === 0) return 0;
  const handle = await orgLedger(env, db, orgId);
  if (!handle) return 0;
  const ledger = ledgerDb(handle);
  const ids = JSON.stringify(rows.map((r) => r.id));
  const events = await db.all<Record<string, unknown>>(
    sql`SELECT * FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids}))`,
  );
  await rawBatch(ledger, [copyStatement(ledger, messages, 'messages', rows), copyStatement(ledger, trackingEvents, 'tracking_events', events)]);
  // Checked before anything leaves D1: every message and event of the page is in the ledger.
  const [held] = await ledger.all<{ m: number; e: number }>(sql`SELECT
      (SELECT count(*) FROM messages WHERE org_id = ${orgId} AND id IN (SELECT value FROM json_each(${ids}))) AS m,
      (SELECT count(*) FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids}))) AS e`);
  if (Number(held.m) !== rows.length || Number(held.e) < events.length) {
    throw new Error(`ledger move of organisation ${orgId}: the ledger holds ${held.m} of ${rows.length} messages and ${held.e} of ${events.length} events`);
  }
  // Single messages arrive in the ledger: the watchdog looks at it again (singles.ts).
  if (rows.some((r) => r.broadcast_id === null)) await markSingleWritten(db, handle);
  await rawBatch(db, [
    db.run(sql`DELETE FROM tracking_events WHERE org_id = ${orgId} AND message_id IN (SELECT value FROM json_each(${ids}))`),
    db.run(sql`DELETE FROM messages WHERE org_id = ${orgId} AND id IN (SELECT value FROM json_each(${ids}))`),
  ]);
  return rows.length;
}

/** Whose messages to move: a contact, and the addresses its messages went to (recipientKey, lowercased). */
export interface MessagesPerson {
  contactId: number;
  recipients: readonly string[];
}

/**
 * Moves a person's messages still in D1 into the organisation's ledger now, a page at a time: an export must show
 * them and an erasure must find them where it erases, and the cron moves a few pages a minute. Run before the
 * contact is deleted (D1's messages lose its id then). None left in D1: one read.
 */
export async function movePersonMessages(env: Env, db: Database, orgId: number, person: MessagesPerson): Promise<number> {
  const theirs = sql`contact_id = ${person.contactId} OR lower(to_address) IN (SELECT value FROM json_each(${JSON.stringify(person.recipients)}))`;
  let moved = 0;
  for (;;) {
    const n = await moveMessagePage(env, db, orgId, MOVE_PAGE, theirs);
    if (n === 0) return moved;
    moved += n;
  }
}

/** Moves the organisation's link clicks (once its messages are moved): the ledger keeps a row it already has. */
async function moveLinks(env: Env, db: Database, orgId: number): Promise<void> {
  const links = await db.all<Record<string, unknown>>(sql`SELECT * FROM broadcast_links WHERE org_id = ${orgId}`);
  if (links.length === 0) return;
  const ledger = await orgLedgerDb(env, db, orgId);
  if (!ledger) return;
  const columns = names(broadcastLinks).filter((c) => c !== 'id');
  await ledger.run(sql`INSERT INTO broadcast_links (${sql.raw(columns.join(', '))})
    SELECT ${sql.raw(columns.map((c) => `value ->> '${c}'`).join(', '))} FROM json_each(${JSON.stringify(links)}) WHERE true
    ON CONFLICT (org_id, broadcast_id, link_index) DO NOTHING`);
  await db.run(sql`DELETE FROM broadcast_links WHERE org_id = ${orgId}`);
}

/**
 * The cron's step of the move: up to `maxPages` pages, organisation by organisation (lowest id first); answers how
 * many messages left D1. Nothing left: one indexed read.
 */
export async function moveMessagesToLedgers(env: Env, db: Database, maxPages = 20): Promise<number> {
  let moved = 0;
  for (let pages = 0; pages < maxPages; ) {
    const [next] = await db.all<{ org_id: number }>(sql`SELECT org_id FROM messages ORDER BY org_id LIMIT 1`);
    if (!next) break;
    const n = await moveMessagePage(env, db, next.org_id);
    pages += 1;
    moved += n;
    if (n === 0) {
      // The organisation has no ledger (it is being deleted): its rows go with it.
      break;
    }
    const [left] = await db.all<{ one: number }>(sql`SELECT 1 AS one FROM messages WHERE org_id = ${next.org_id} LIMIT 1`);
    if (!left) await moveLinks(env, db, next.org_id);
  }
  return moved;
}
