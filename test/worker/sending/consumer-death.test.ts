import { describe, expect, it } from 'vitest';
import { SendChannels } from '../../../src/modules/sending/channels';
import { consumerDeathFaults, IsolateDeath } from '../../../src/modules/sending/consumer-death';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import { recordingProviders } from '../channel-helpers';
import { E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { ledgerOfBroadcast } from '../helpers';

// The crash stage's killed consumer isolate (FAULT_CONSUMER_DIES_AFTER, src/modules/sending/consumer-death.ts): the
// deliveries in flight at the death write nothing more, as a dead isolate's would, so their rows wait for the lease;
// deliveries after it run normally (a fresh isolate). Without the var nothing changes.

describe('a consumer isolate that dies mid-batch (the crash stage fault)', () => {
  it('leaves its rows claimed and unrecorded for the lease to free, and the next delivery sends them', async () => {
    const s = await setup('die');
    const id = await startable(s.o, s.body());
    const [body] = await runAlarm(s.o, id);
    const vars = { ...E, FAULT_CONSUMER_DIES_AFTER: '1' };
    const rec = recordingProviders();
    const channels = new SendChannels(E, rec.providers);
    await expect(deliverBatch(vars, body, 1, channels, consumerDeathFaults(vars))).rejects.toBeInstanceOf(IsolateDeath);
    await channels.close();
    expect(rec.sent).toHaveLength(3);
    const ledger = await ledgerOfBroadcast(id);
    const rows = () =>
      ledger.prepare("SELECT status, claim IS NOT NULL AS claimed FROM messages WHERE broadcast_id = ? AND status != 'skipped'").bind(id).all();
    // Accepted by the server but never recorded: a dead delivery's rows, still claimed.
    expect((await rows()).results).toEqual(Array(3).fill({ status: 'sending', claimed: 1 }));
    // Their lease runs out; a delivery started after the death (the fresh isolate) takes and sends them.
    await ledger
      .prepare('UPDATE messages SET updated_at = ? WHERE broadcast_id = ?')
      .bind(new Date(Date.now() - 600_000).toISOString(), id)
      .run();
    const again = new SendChannels(E, recordingProviders().providers);
    await deliverBatch(vars, body, 2, again, consumerDeathFaults(vars));
    await again.close();
    expect((await rows()).results).toEqual(Array(3).fill({ status: 'sent', claimed: 0 }));
  });

  it('changes nothing without the var (production)', () => {
    expect(consumerDeathFaults({})).toEqual({});
    expect(consumerDeathFaults({ FAULT_CONSUMER_DIES_AFTER: 'no' })).toEqual({});
  });
});
