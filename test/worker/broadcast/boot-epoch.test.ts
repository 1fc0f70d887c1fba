import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { BroadcastRunner } from '../../../src/modules/broadcast/runner';
import type { Env } from '../../../src/env';
import { queueLostBefore } from '../../../src/modules/sending/queue-epoch';
import { E, runAlarm, setup, startable } from './run-helpers';
import { ledgerOfBroadcast } from '../helpers';

// The boot epoch (src/modules/sending/queue-epoch.ts): where the queue loses its messages on a restart (the local
// platform sets QUEUE_LOST_BEFORE at every boot), the first alarm after a boot takes back at once the rows handed
// to the queue before it, queued or claimed by a delivery that died with the runtime; without the var (production)
// the lease rules stay, and a row claimed in this runtime is never taken from its delivery.

const iso = (ms: number) => new Date(ms).toISOString();

/** A sending broadcast whose three email rows are on the queue (one claimed), all last touched at `touchedAt`. */
async function handedOff(prefix: string, touchedAt: number) {
  const s = await setup(prefix);
  const id = await startable(s.o, s.body());
  const ids = (await runAlarm(s.o, id)).flatMap((b) => b.ids);
  expect(ids).toHaveLength(3);
  const ledger = await ledgerOfBroadcast(id);
  await ledger.prepare("UPDATE messages SET updated_at = ? WHERE broadcast_id = ? AND status = 'queued'").bind(iso(touchedAt), id).run();
  await ledger.prepare("UPDATE messages SET status = 'sending', claim = 'a-delivery' WHERE id = ?").bind(ids[0]).run();
  const rows = async () =>
    (
      await ledger
        .prepare("SELECT id, status, claim FROM messages WHERE broadcast_id = ? AND status IN ('queued', 'sending') ORDER BY id")
        .bind(id)
        .all<{ id: number; status: string; claim: string | null }>()
    ).results;
  return { s, id, ids, ledger, rows };
}

describe('rows whose queue message died with the last runtime', () => {
  it('are made queued and put back on the queue at the first alarm after the boot, once', async () => {
    const boot = Date.now() - 1_000;
    const { s, id, ids, rows } = await handedOff('boot', boot - 5_000);
    const vars: Partial<Env> = { QUEUE_LOST_BEFORE: String(boot) };
    const again = await runAlarm(s.o, id, undefined, vars);
    expect(again.flatMap((b) => b.ids).sort()).toEqual([...ids].sort());
    // The claimed one is given back (its delivery died with the runtime): any delivery may take it now.
    expect(await rows()).toEqual(ids.map((mid) => ({ id: mid, status: 'queued', claim: null })));
    // Taken back once per boot: the next alarm of the same runtime puts nothing on the queue again.
    expect(await runAlarm(s.o, id, undefined, vars)).toEqual([]);
  });

  it('leaves a row claimed after the boot to its delivery, which is alive', async () => {
    const boot = Date.now() - 10_000;
    const { s, id, ids, ledger, rows } = await handedOff('live', boot - 5_000);
    // The first row was claimed again in this runtime (its claim and heartbeat stamp it after the boot).
    await ledger.prepare("UPDATE messages SET claim = 'this-runtime', updated_at = ? WHERE id = ?").bind(iso(Date.now()), ids[0]).run();
    const again = await runAlarm(s.o, id, undefined, { QUEUE_LOST_BEFORE: String(boot) });
    expect(again.flatMap((b) => b.ids).sort()).toEqual(ids.slice(1).sort());
    expect((await rows())[0]).toEqual({ id: ids[0], status: 'sending', claim: 'this-runtime' });
  });

  it('waits for the lease rules where the queue keeps its messages (no boot epoch: production)', async () => {
    const { s, id, rows } = await handedOff('prod', Date.now() - 5_000);
    const before = await rows();
    expect(await runAlarm(s.o, id)).toEqual([]);
    expect(await rows()).toEqual(before);
  });

  it('makes the watchdog poke wake a runner at once after a boot, even with an alarm set before it', async () => {
    const boot = Date.now() - 1_000;
    const { s, id } = await handedOff('poke', boot - 5_000);
    const stub = E.BROADCAST.get(E.BROADCAST.idFromName(String(id)));
    const ref = { orgId: s.o.orgId, broadcastId: id };
    const poke = (vars: Partial<Env>, lostEpoch?: number) =>
      runInDurableObject(stub, async (instance: BroadcastRunner, state) => {
        (instance as unknown as { env: Env }).env = { ...E, ...vars } as Env;
        await state.storage.setAlarm(Date.now() + 20_000);
        if (lostEpoch !== undefined) await state.storage.put('lostEpoch', lostEpoch);
        const woken = await instance.poke(ref);
        const at = await state.storage.getAlarm();
        await state.storage.deleteAlarm();
        return { woken, soon: at !== null && at <= Date.now() + 1_000 };
      });
    // Production: an alarm that is set stays where it is.
    expect(await poke({})).toEqual({ woken: false, soon: false });
    // After a boot the runner has not looked since: now.
    expect(await poke({ QUEUE_LOST_BEFORE: String(boot) })).toEqual({ woken: true, soon: true });
    // Once it has looked in this runtime, a set alarm stays.
    expect(await poke({ QUEUE_LOST_BEFORE: String(boot) }, boot)).toEqual({ woken: false, soon: false });
  });

  it('reads the boot epoch only as a time already past', () => {
    const now = Date.now();
    expect(queueLostBefore({}, now)).toBeNull();
    expect(queueLostBefore({ QUEUE_LOST_BEFORE: '' }, now)).toBeNull();
    expect(queueLostBefore({ QUEUE_LOST_BEFORE: 'soon' }, now)).toBeNull();
    expect(queueLostBefore({ QUEUE_LOST_BEFORE: String(now + 60_000) }, now)).toBeNull();
    expect(queueLostBefore({ QUEUE_LOST_BEFORE: String(now - 1) }, now)).toBe(now - 1);
  });
});
