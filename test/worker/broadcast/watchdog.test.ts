import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../../src/index';
import type { BroadcastRunner } from '../../../src/modules/broadcast/runner';
import { WATCHDOG_CRON } from '../../../src/scheduled';
import { E, runAlarm, setup, startable } from './run-helpers';

// The watchdog cron (every minute; the local platform calls it at boot): a runtime restart forgets the Durable
// Objects' alarms, so the cron pokes the runner of every active broadcast. In a file of its own: the alarm it sets
// fires for real, and no other broadcast of the file should be woken by it.

describe('the watchdog cron', () => {
  it('the watchdog cron sets the alarm of a sending broadcast whose alarm was lost, and moves none that is set', async () => {
    const s = await setup('dog');
    const id = await startable(s.o, s.body());
    await runAlarm(s.o, id); // sending now; runAlarm leaves no alarm behind, as a restart would
    const stub = E.BROADCAST.get(E.BROADCAST.idFromName(String(id)));
    const alarmOf = () => runInDurableObject(stub, (_instance: BroadcastRunner, state) => state.storage.getAlarm());
    expect(await alarmOf()).toBeNull();
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: WATCHDOG_CRON }), E, ctx);
    await waitOnExecutionContext(ctx);
    const set = await alarmOf();
    expect(set).not.toBeNull();
    expect(Math.abs(set! - Date.now())).toBeLessThan(10_000);
    // A paced broadcast's next send an hour away stays where it is.
    const later = Date.now() + 3_600_000;
    await runInDurableObject(stub, (_instance: BroadcastRunner, state) => state.storage.setAlarm(later));
    expect(await runInDurableObject(stub, (instance: BroadcastRunner) => instance.poke({ orgId: s.o.orgId, broadcastId: id }))).toBe(false);
    expect(await alarmOf()).toBe(later);
    await runInDurableObject(stub, (_instance: BroadcastRunner, state) => state.storage.deleteAlarm());
  });
});
