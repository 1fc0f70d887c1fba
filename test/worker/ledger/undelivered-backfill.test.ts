// Ledger step 8 (src/modules/ledger/ledger-schema.ts): a ledger made before broadcasts counted their undelivered SMS
// gains the counter with the counts of the SMS broadcasts it already holds, so their overview's Undelivered figure
// agrees with their recipients' Undelivered filter (issue 35, finding 3), and D1 is told (rev bumped).
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { LEDGER_STEPS, migrateLedger } from '../../../src/modules/ledger/ledger-schema';
import { ledgerName } from '../../../src/modules/ledger/owner';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { ledgerSql } from '../helpers';

describe('ledger step 8', () => {
  it("counts the undelivered SMS of the broadcasts a ledger already holds, as the recipients' filter does", async () => {
    const s = await setup('ub');
    const id = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id }));
    await deliverAll(await runAlarm(s.o, id));
    const ledger = await ledgerSql(s.o.orgId);
    // Reports written before the counter existed: one undelivered, one delivered.
    for (const [phone, report] of [
      ['+15550000001', 'failed'],
      ['+15550000002', 'delivered'],
    ])
      await ledger.prepare('UPDATE messages SET delivery_status = ? WHERE broadcast_id = ? AND to_address = ?').bind(report, id, phone).run();
    const before = (await ledger.prepare('SELECT rev FROM broadcasts WHERE id = ?').bind(id).first<number>('rev'))!;

    // The ledger as it stood at step 7 (what the later steps made undone), brought up to date again.
    const handle = (await orgLedger(E, createDb(E.DB), s.o.orgId))!;
    const version = await runInDurableObject(ledgerStub(E, ledgerName(handle.owner.key, handle.owner.generation)), (_instance, state) => {
      // Step 14's stream: its triggers and views name columns of the later steps.
      for (const trigger of [
        'events_deliveries',
        'messages_event_sent',
        'messages_event_delivery',
        'tracking_events_event',
        'broadcasts_event_status',
        'broadcasts_event_inserted',
      ])
        state.storage.sql.exec(`DROP TRIGGER ${trigger}`);
      for (const view of ['event_messages', 'event_broadcasts']) state.storage.sql.exec(`DROP VIEW ${view}`);
      for (const table of ['events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_flights', 'webhook_mirror_loaded'])
        state.storage.sql.exec(`DROP TABLE ${table}`);
      state.storage.sql.exec('ALTER TABLE broadcasts DROP COLUMN undelivered');
      state.storage.sql.exec('DROP TABLE idempotency_keys');
      state.storage.sql.exec('DROP TABLE archive_holders');
      state.storage.sql.exec('DROP INDEX messages_lane');
      for (const column of ['api_key_id', 'metadata', 'send_options']) state.storage.sql.exec(`ALTER TABLE messages DROP COLUMN ${column}`);
      for (const column of ['next_single_at', 'last_single_at', 'last_bulk_at']) state.storage.sql.exec(`ALTER TABLE send_gates DROP COLUMN ${column}`);
      state.storage.sql.exec('UPDATE ledger_schema SET version = 7');
      return migrateLedger(state.storage);
    });
    expect(version).toBe(LEDGER_STEPS.length);

    expect(await ledger.prepare('SELECT undelivered, rev FROM broadcasts WHERE id = ?').bind(id).first()).toEqual({ undelivered: 1, rev: before + 1 });
    const b = (await s.o.api('GET', `/broadcast/${id}`)).body.data;
    const filtered = (await s.o.api('GET', `/broadcast/${id}/recipients?outcome=undelivered`)).body;
    expect(filtered.meta.total).toBe(1);
    expect(b.engagement.undelivered).toBe(filtered.meta.total);
  });
});
