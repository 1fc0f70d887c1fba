import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { BroadcastRunner } from '../../../src/modules/broadcast/runner';
import { deliverAll, runAlarm, setup, startable } from './run-helpers';
import { ledgerOfBroadcast, ledgerSql } from '../helpers';

// The send window: the runner writes and queues the next page of recipients only while fewer than BROADCAST_WINDOW
// of the broadcast's recipients are on their way, so one organisation's big broadcast does not fill the one send
// queue ahead of everyone else's (bench:isolation).

/** The broadcast's state where it is written once started: its organisation's ledger (src/modules/ledger). */
const state = async (id: number) =>
  (await ledgerOfBroadcast(id)).prepare('SELECT status, total, sent, skipped, enumerated FROM broadcasts WHERE id = ?').bind(id).first();

describe('the send window', () => {
  it('holds the next page while the window is full, and goes on once the messages on their way are sent', async () => {
    const s = await setup('win');
    const id = await startable(s.o, s.body());
    // A window of 2: the first page (3 email recipients and one skipped) is written and queued; the next is held.
    const first = await runAlarm(s.o, id, undefined, { BROADCAST_WINDOW: '2' });
    expect(first.flatMap((b) => b.ids)).toHaveLength(3);
    expect(await state(id)).toEqual({ status: 'sending', total: 4, sent: 0, skipped: 1, enumerated: 0 });
    // Still full: another alarm writes nothing.
    expect(await runAlarm(s.o, id, undefined, { BROADCAST_WINDOW: '2' })).toEqual([]);
    expect(await state(id)).toMatchObject({ enumerated: 0 });
    // Sent: the window has room, the walk ends (no more contacts) and the broadcast finishes.
    await deliverAll(first);
    expect(await runAlarm(s.o, id, undefined, { BROADCAST_WINDOW: '2' })).toEqual([]);
    expect(await state(id)).toEqual({ status: 'finished', total: 4, sent: 3, skipped: 1, enumerated: 1 });
  });

  it('takes back rows stranded while the window is full (their queue message lost), so it never stays full', async () => {
    const s = await setup('lost');
    const id = await startable(s.o, s.body());
    await runAlarm(s.o, id, undefined, { BROADCAST_WINDOW: '2' }); // queued, and the queue messages "lost"
    await (await ledgerSql(s.o.orgId))
      .prepare("UPDATE messages SET updated_at = ? WHERE broadcast_id = ? AND status = 'queued'")
      .bind(new Date(Date.now() - 600_000).toISOString(), id)
      .run();
    // Half a lease later (the runner looks for stranded rows at most that often).
    const stub = env.BROADCAST.get(env.BROADCAST.idFromName(String(id)));
    await runInDurableObject(stub, (_instance: BroadcastRunner, state) => state.storage.delete('strandedCheck'));
    const again = await runAlarm(s.o, id, undefined, { BROADCAST_WINDOW: '2' });
    expect(again.flatMap((b) => b.ids)).toHaveLength(3);
    expect(await state(id)).toMatchObject({ enumerated: 0 });
  });

  it('does not hold a broadcast whose window has room (the default is 10,000)', async () => {
    const s = await setup('room');
    const id = await startable(s.o, s.body());
    await runAlarm(s.o, id);
    expect(await state(id)).toMatchObject({ total: 4, enumerated: 1 });
  });
});
