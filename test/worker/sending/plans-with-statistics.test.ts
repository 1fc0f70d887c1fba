import { env } from 'cloudflare:workers';
import { desc, eq, type SQL, sql } from 'drizzle-orm';
import { messages } from '../../../src/db/schema';
import { describe, expect, it } from 'vitest';
import { createDb, type Database } from '../../../src/db/client';
import type { BatchStatement } from '../../../src/modules/crud/raw-batch';
import { OPTIONS_OF_FIELDS_SQL } from '../../../src/modules/import/lookups';
import { claimStatement, countClaimed, finishStatement, outcomesJson } from '../../../src/modules/sending/claim';
import { renewStatement } from '../../../src/modules/sending/lease';
import { messageOutcomeStats } from '../../../src/modules/stats/daily';
import { stalledSingles, unfinishedSingle } from '../../../src/modules/message/send-message';
import { ledgersWithPendingSingles } from '../../../src/modules/ledger/singles';
import { deliveryStatusStatement, undeliveredCountStatement } from '../../../src/modules/sms-hooks/delivery-status';
import { newSession } from '../api-helpers';
import { ledgerSql } from '../helpers';

// Query plans that hold with statistics. Statements that find rows through a JSON list of ids
// (`id IN (SELECT value FROM json_each(?))`, or a join with json_each(?)) must seek those rows by key whether or
// not ANALYZE / PRAGMA optimize has run (D1 recommends PRAGMA optimize): without statistics SQLite likes an
// org_id index (every row of the organisation), with statistics it may turn to a SCAN of the table. Each statement
// is explained on a seeded database three times: without statistics, after PRAGMA optimize, after ANALYZE.
//
// Every statement is built by the source function that runs it (claim.ts, lease.ts, daily.ts, import/lookups.ts),
// so a change of that SQL is checked here. The messages' statements are explained where they run, in an
// organisation's ledger (src/modules/ledger: SQLite in a Durable Object, statistics and all), the import's in D1. Statements fixed the same way but run inline in their modules
// (retention/archive.ts, tracking/count.ts, files/stored-files.ts, broadcast/validate.ts, contact/references.ts)
// were checked by hand on a scratch database with the same seed; they are not repeated here as copies.

type Query = { sql: string; params: unknown[] };
const queryOf = (s: BatchStatement): Query => ('toSQL' in s ? s.toSQL() : s.getQuery());
const raw = (db: Database, q: SQL): Query => db.run(q).getQuery();

async function explain(store: D1Database, q: Query): Promise<string> {
  const rows = await store
    .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
    .bind(...q.params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join('\n');
}

/**
 * Rows enough that a scan or an index walk costs more than seeking 100 keys: messages in the ledger (eight broadcasts,
 * most sent, some queued or held), field options in D1 in two organisations (most in `a`).
 */
async function seed(ledger: D1Database, a: number, b: number) {
  const n = (count: number) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})`;
  await ledger
    .prepare(
      `${n(20000)} INSERT INTO messages (org_id, type, status, broadcast_id, from_address, to_address, body, claim)
       SELECT ?1, CASE WHEN i % 5 THEN 'email' ELSE 'sms' END,
         CASE WHEN i % 50 = 0 THEN 'queued' WHEN i % 97 = 0 THEN 'sending' ELSE 'sent' END,
         ?1 * 100 + i % 8, 'from@example.com', 'to' || i || '@example.com', 'body', CASE WHEN i % 97 = 0 THEN 'tok' END FROM n`,
    )
    .bind(a)
    .run();
  const statements: [string, unknown[]][] = [];
  for (const [org, scale] of [
    [a, 4],
    [b, 1],
  ]) {
    statements.push(
      [`${n(20)} INSERT INTO fields (org_id, name, alias, type) SELECT ?1, 'f' || i, 'f' || i, 'select' FROM n`, [org]],
      [
        `${n(100 * scale)} INSERT INTO field_options (org_id, field_id, value, position)
         SELECT ?1, f.id, 'o' || n.i, n.i FROM n, fields f WHERE f.org_id = ?1`,
        [org],
      ],
    );
  }
  // The registry at thousands of organisations, a few with single messages the watchdog has not seen finish.
  statements.push([
    `${n(3000)} INSERT INTO ledgers (name, org_id, generation, id_base, ready, singles_mark, singles_checked)
     SELECT 'plan-' || ?1 || '-' || i, ?1, i, ?1 * 10000 + i, 1, 2, CASE WHEN i % 500 = 0 THEN 1 ELSE 2 END FROM n`,
    [b],
  ]);
  for (const [q, params] of statements)
    await env.DB.prepare(q)
      .bind(...params)
      .run();
}

describe('plans with statistics', () => {
  it('seeks the listed rows by key without statistics, after PRAGMA optimize and after ANALYZE', async () => {
    const orgA = (await newSession('plan')).orgId;
    const orgB = (await newSession('plan')).orgId;
    const ledger = await ledgerSql(orgA);
    await seed(ledger, orgA, orgB);
    const db = createDb(env.DB);
    const ids = (
      await ledger.prepare("SELECT id FROM messages WHERE org_id = ? AND status = 'queued' ORDER BY id LIMIT 100").bind(orgA).all<{ id: number }>()
    ).results.map((r) => r.id);
    expect(ids).toHaveLength(100);
    const idsJson = JSON.stringify(ids);
    const token = 'tok';
    const outcomes = outcomesJson(ids.map((id) => ({ id, status: 'sent' as const, externalId: 'x' })));
    const now = new Date().toISOString();
    const fieldIds = JSON.stringify(
      (await env.DB.prepare('SELECT id FROM fields WHERE org_id = ? LIMIT 5').bind(orgA).all<{ id: number }>()).results.map((r) => r.id),
    );

    const byRowid = /SEARCH (messages|m) USING INTEGER PRIMARY KEY \(rowid=\?\)/;
    const cases: { name: string; store: D1Database; query: Query; want: RegExp; never: RegExp }[] = [
      {
        // With the condition deliver-batch.ts adds: the organisation, and a broadcast still sending.
        name: 'claimStatement',
        store: ledger,
        query: raw(
          db,
          claimStatement(
            {
              table: 'messages',
              ids,
              where: sql`+org_id = ${orgA} AND (+broadcast_id IS NULL OR +broadcast_id IN (SELECT id FROM broadcasts WHERE org_id = ${orgA} AND status = 'sending'))`,
            },
            token,
          ),
        ),
        want: byRowid,
        never: /SCAN messages|messages_org/,
      },
      {
        name: 'finishStatement',
        store: ledger,
        query: queryOf(finishStatement(db, 'messages', token, outcomes)),
        want: byRowid,
        never: /SCAN messages|messages_org/,
      },
      {
        name: 'countClaimed',
        store: ledger,
        query: raw(db, sql`SELECT ${countClaimed(token, outcomes, 'sent', orgA * 100)}`),
        want: byRowid,
        never: /SCAN m\b|messages_org/,
      },
      {
        name: 'messageOutcomeStats',
        store: ledger,
        query: queryOf(messageOutcomeStats(db, orgA, token, outcomes)),
        want: byRowid,
        never: /SCAN m\b|messages_org/,
      },
      {
        name: 'renewStatement (the heartbeat)',
        store: ledger,
        query: raw(db, renewStatement('messages', token, idsJson, now)),
        want: byRowid,
        never: /SCAN messages|messages_org/,
      },
      {
        name: 'deliveryStatusStatement (a Twilio receipt by SID)',
        store: ledger,
        query: raw(db, deliveryStatusStatement(orgA, { messageId: null, externalId: 'SM123' }, 'delivered', null)),
        want: /SEARCH messages USING INDEX messages_sms_external \(external_id=\?\)/,
        never: /SCAN messages/,
      },
      {
        // Its broadcast's undelivered count, in the same batch: the message by the SMS-only index, the broadcast by id.
        name: 'undeliveredCountStatement (the receipt by SID counts an undelivered SMS)',
        store: ledger,
        query: raw(db, undeliveredCountStatement(orgA, { messageId: null, externalId: 'SM123' })),
        want: /SEARCH broadcasts USING INTEGER PRIMARY KEY \(rowid=\?\)[\s\S]*SEARCH messages USING INDEX messages_sms_external \(external_id=\?\)/,
        never: /SCAN (messages|broadcasts)/,
      },
      {
        name: 'stalledSingles (the watchdog)',
        store: ledger,
        query: queryOf(stalledSingles(db, now)),
        // The lane's partial index (single messages only, ledger step 9) or the broadcast index's null prefix.
        want: /SEARCH messages USING INDEX (messages_lane \(status=\? AND updated_at<\?\)|messages_broadcast_contact \(broadcast_id=\?\))/,
        never: /SCAN messages/,
      },
      {
        name: 'unfinishedSingle (the watchdog, before it stops asking)',
        store: ledger,
        query: queryOf(unfinishedSingle(db)),
        want: /SEARCH messages USING INDEX (messages_lane \(status=\?\)|messages_broadcast_contact \(broadcast_id=\?\))/,
        never: /SCAN messages/,
      },
      {
        name: 'ledgersWithPendingSingles (the watchdog, every minute)',
        store: env.DB,
        query: queryOf(ledgersWithPendingSingles(createDb(env.DB))),
        want: /ledgers_singles_pending/,
        never: /SCAN ledgers\b(?! USING)/,
      },
      {
        // The message list's default page as crud-routes.ts builds it (newest first, the organisation's rows).
        name: 'the message list, newest first',
        store: ledger,
        query: queryOf(db.select().from(messages).where(eq(messages.orgId, orgA)).orderBy(desc(messages.id), desc(messages.id)).limit(10).offset(410)),
        want: /messages_org \(org_id=\?\)/,
        never: /TEMP B-TREE/,
      },
      {
        name: 'OPTIONS_OF_FIELDS_SQL (import)',
        store: env.DB,
        query: { sql: OPTIONS_OF_FIELDS_SQL, params: [orgA, fieldIds] },
        want: /SEARCH o USING INDEX field_options_(org_field|field_value) \(.*field_id=\?\)/,
        never: /SCAN o\b/,
      },
    ];

    const check = async (phase: string) => {
      for (const c of cases) {
        const plan = await explain(c.store, c.query);
        expect(plan, `${c.name}, ${phase}`).toMatch(c.want);
        expect(plan, `${c.name}, ${phase}`).not.toMatch(c.never);
      }
    };
    await check('without statistics');
    for (const store of [env.DB, ledger]) await store.prepare('PRAGMA optimize').run();
    await check('after PRAGMA optimize');
    for (const store of [env.DB, ledger]) await store.prepare('ANALYZE').run();
    // The ledger kept its statistics (sqlite_stat1 has rows): the phase tests what it says it tests.
    expect((await ledger.prepare('SELECT count(*) AS n FROM sqlite_stat1').first<{ n: number }>())!.n).toBeGreaterThan(0);
    await check('after ANALYZE');
  });
});
