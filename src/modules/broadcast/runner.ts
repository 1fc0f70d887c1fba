import { DurableObject } from 'cloudflare:workers';
import { createDb, type Database } from '../../db/client';
import type { Env } from '../../env';
import { publishBroadcastProgress } from './progress';
import { closeCancelled, finishIfDone, markStarted, markUnstartable } from './lifecycle';
import { ledgerRun, loadBroadcast, queuedAfter, releaseLost, skipCancelled, strandedRows, writeRecipientPage, type BroadcastRow } from './run-store';
import { broadcastLedgerDb } from '../ledger/registry';
import { takeSnapshot } from './snapshot';
import { leaseMs } from '../sending/lease';
import { enqueueBatches } from '../sending/send-queue';
import { queueLostBefore } from '../sending/queue-epoch';

// One object per broadcast owns its run (a Durable Object; durable-objects/broadcast-runner.ts names the class for
// the runtime, src/index.ts exports it). Routes write a status change (one conditional UPDATE) and then
// `wake` the object; the object's alarm reads the broadcast and takes the step its status calls for (the statuses
// and every change between them: lifecycle.ts):
//   waiting   -> sleep until delayed_at
//   queued    -> start: freeze template and sender, fix the recipients (contacts up to the newest id now)
//   sending   -> walk the recipients a page at a time (message rows, keyset on contact id) and put their ids
//                on the send queue (a window of pages ahead of the sending, or one every `sleep` seconds); then
//                watch until all are done
//   cancelled -> the messages that never went out become skipped
//   paused, finished -> nothing (resume and retry-failed wake it again)
// The object keeps only where it is in the queue of messages (`dispatched`, a message id) in its storage; from the
// start on, the status, cursor and counters live in the organisation's ledger with the message rows
// (src/modules/ledger), which projects them into D1's row. Alarms are at least once and every step is safe to repeat.
// An active broadcast's alarm is re-armed before its step runs, so a step that dies comes back; and since a local
// runtime restart forgets alarms, the watchdog cron (and the local platform at boot) pokes every active runner.
// Where the queue loses its messages on a restart (locally), the first alarm after a boot takes back at once every
// row handed to the queue before it (takeBackLost, src/modules/sending/queue-epoch.ts); `lostEpoch` in the storage
// says which boot it has done that for.

/** Recipients written per page: one INSERT ... SELECT and one counter update in one transaction. */
const PAGE = 1000;
/** Pages per alarm before yielding (the next alarm follows at once). */
const PAGES_PER_ALARM = 20;
/** Rows cancelled per statement. */
const CANCEL_CHUNK = 5000;
/** While the last batches are out, look at least this often for rows stranded by a lost queue message or a dead delivery. */
const WATCH_MS = 30_000;
/**
 * Recipients of one broadcast on their way at most (written and not yet sent, failed or skipped), unless
 * BROADCAST_WINDOW says otherwise: the runner writes and queues the next page only below it. The send queue is one
 * line for every organisation, first in first out: without a window a broadcast to a million would put all of them
 * ahead of another organisation's broadcast of a hundred (bench:isolation).
 */
const DEFAULT_WINDOW = 10_000;
/** How soon a runner whose window is full looks again. */
const WINDOW_WAIT_MS = 250;

/** The window in recipients (BROADCAST_WINDOW, at least 1). */
function sendWindow(env: Pick<Env, 'BROADCAST_WINDOW'>): number {
  const value = Number(env.BROADCAST_WINDOW);
  return Number.isSafeInteger(value) && value >= 1 ? value : DEFAULT_WINDOW;
}

/** Recipients written whose message is not accounted for yet (queued or being sent). */
const inFlight = (b: BroadcastRow) => b.total - b.sent - b.failed - b.skipped;

/** A poked runner whose alarm is this far overdue sets it again (a local restart leaves past alarms unfired). */
const OVERDUE_MS = 5_000;
/** Statuses whose runner has a step to take. */
const ACTIVE: readonly string[] = ['waiting', 'queued', 'sending', 'cancelled'];

interface Ref {
  orgId: number;
  broadcastId: number;
}

export class BroadcastRunner extends DurableObject<Env> {
  /** Called after every status change a route made: remember the broadcast and act on its status now. */
  async wake(ref: Ref, options: { redispatch?: boolean } = {}): Promise<void> {
    await this.ctx.storage.put('ref', ref);
    // Resume and retry-failed put rows back to queued that were passed over: walk the queue again from the start.
    if (options.redispatch) await this.ctx.storage.put('dispatched', 0);
    await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * The watchdog's call: makes sure the runner has an alarm, without moving one that is set (a paced broadcast's
   * next send stays where it is). Answers whether it had to set one.
   */
  async poke(ref: Ref): Promise<boolean> {
    // A runner that never got its wake learns which broadcast it runs; the others keep theirs (no write a minute).
    if (!(await this.ctx.storage.get<Ref>('ref'))) await this.ctx.storage.put('ref', ref);
    const at = await this.ctx.storage.getAlarm();
    // A runner that has not looked since the boot gets its alarm now, whatever it had set: its rows' queue messages died.
    const lostBefore = queueLostBefore(this.env);
    const sinceBoot = lostBefore === null || (await this.ctx.storage.get<number>('lostEpoch')) === lostBefore;
    if (sinceBoot && at !== null && at > Date.now() - OVERDUE_MS) return false;
    await this.ctx.storage.setAlarm(Date.now());
    return true;
  }

  async alarm(): Promise<void> {
    const ref = await this.ctx.storage.get<Ref>('ref');
    if (!ref) return;
    const db = createDb(this.env.DB);
    const d1Row = await loadBroadcast(db, ref.orgId, ref.broadcastId);
    const ledger = d1Row ? await broadcastLedgerDb(this.env, db, d1Row) : null;
    if (!d1Row || !ledger) {
      await this.ctx.storage.deleteAll();
      return;
    }
    // From its start on, the broadcast's status and counters are its ledger's (with its messages).
    const b = (await ledgerRun(ledger, d1Row)) ?? d1Row;
    const stores: Stores = { db, ledger };
    // Re-armed first: if this step dies part-way, the runner looks again (each step below sets its own next alarm).
    if (ACTIVE.includes(b.status)) {
      await this.ctx.storage.setAlarm(Date.now() + WATCH_MS);
      await this.takeBackLost(ledger, b);
    }
    switch (b.status) {
      case 'waiting':
        return this.waitOrStart(stores, b);
      case 'queued':
        return this.start(stores, b);
      case 'sending':
        return this.send(stores, b);
      case 'cancelled':
        return this.cancel(stores, b);
      default:
        // paused or finished: nothing to do until a route wakes us again.
        return;
    }
  }

  /** A scheduled broadcast sleeps until its time, then starts. */
  private async waitOrStart(stores: Stores, b: BroadcastRow): Promise<void> {
    const at = b.delayedAt ? Date.parse(b.delayedAt) : 0;
    if (at > Date.now()) {
      await this.ctx.storage.setAlarm(at);
      return;
    }
    await this.start(stores, b);
  }

  /** Freezes the content and fixes the recipients (in D1), hands the broadcast to its ledger, then starts sending. */
  private async start({ db }: Stores, b: BroadcastRow): Promise<void> {
    const taken = await takeSnapshot(db, this.env.FILES, b.orgId, b.id, b.templateId, b.senderId, { opens: b.trackOpens, clicks: b.trackClicks });
    if ('problem' in taken) {
      await this.ctx.storage.deleteAlarm();
      await markUnstartable(db, b, taken.problem);
      const now = await loadBroadcast(db, b.orgId, b.id);
      if (now) await publishBroadcastProgress(this.env, b.orgId, now);
      return;
    }
    const started = await markStarted(db, b, taken.snapshot);
    if (!started) {
      // Someone changed the status meanwhile (cancelled it): look again.
      await this.ctx.storage.setAlarm(Date.now());
      return;
    }
    // The ledger it started in (the newest at the start, which the start's own write chose).
    const ledger = await broadcastLedgerDb(this.env, db, started);
    if (!ledger) return;
    const run = (await ledgerRun(ledger, started)) ?? started;
    await this.ctx.storage.put('dispatched', 0);
    await publishBroadcastProgress(this.env, b.orgId, run);
    if (run.status === 'sending') await this.send({ db, ledger }, run);
    else await this.ctx.storage.setAlarm(Date.now());
  }

  /** Writes pages of recipients and hands their messages to the send queue, at the broadcast's pace. */
  private async send(stores: Stores, first: BroadcastRow): Promise<void> {
    const { db, ledger } = stores;
    let b = first;
    const paced = b.sleep > 0;
    for (let round = 0; round < PAGES_PER_ALARM; round++) {
      let dispatched = (await this.ctx.storage.get<number>('dispatched')) ?? 0;
      let ids = await queuedAfter(ledger, b, dispatched, paced ? 1 : PAGE);
      if (ids.length === 0 && !b.enumerated) {
        // Everything written is on the queue: the next page only when the broadcast's window has room.
        b = (await loadBroadcast(ledger, b.orgId, b.id)) ?? b;
        if (b.status !== 'sending') return;
        if (!paced && inFlight(b) >= sendWindow(this.env)) {
          // The window stays full while rows are stranded on their way: take them back now and then, as watch does.
          const last = (await this.ctx.storage.get<number>('strandedCheck')) ?? 0;
          if (Date.now() - last >= this.watchEvery(b)) {
            await this.ctx.storage.put('strandedCheck', Date.now());
            await this.requeueStranded(ledger, b);
          }
          await this.ctx.storage.setAlarm(Date.now() + WINDOW_WAIT_MS);
          return;
        }
        await writeRecipientPage(db, ledger, b, PAGE);
        b = (await loadBroadcast(ledger, b.orgId, b.id)) ?? b;
        if (b.status !== 'sending') return;
        ids = await queuedAfter(ledger, b, dispatched, paced ? 1 : PAGE);
        await publishBroadcastProgress(this.env, b.orgId, b);
      }
      if (ids.length > 0) {
        await enqueueBatches(this.env, b.orgId, b.id, ids);
        dispatched = ids[ids.length - 1];
        await this.ctx.storage.put('dispatched', dispatched);
        if (paced) {
          await this.ctx.storage.setAlarm(Date.now() + b.sleep * 1000);
          return;
        }
        continue;
      }
      if (b.enumerated) return this.watch(ledger, b);
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  /**
   * Every message is on the queue: finish when all are accounted for, else look again soon, putting back on the
   * queue the rows stranded: queued but untouched for two leases (their queue message was lost: a runtime restart,
   * the dead letters) or claimed by a delivery whose lease ran out (it died mid-send). Their claim makes a second
   * copy harmless.
   */
  private async watch(ledger: Database, b: BroadcastRow): Promise<void> {
    const finished = await finishIfDone(ledger, b);
    if (finished) {
      await this.ctx.storage.deleteAlarm();
      await publishBroadcastProgress(this.env, b.orgId, finished);
      return;
    }
    await this.requeueStranded(ledger, b);
    await this.ctx.storage.setAlarm(Date.now() + this.watchEvery(b));
  }

  /** Puts back on the queue the broadcast's rows stranded on their way (a page at a time; see watch). */
  private async requeueStranded(ledger: Database, b: BroadcastRow): Promise<void> {
    const lease = leaseMs(this.env);
    const now = Date.now();
    const before = { queuedBefore: new Date(now - 2 * lease).toISOString(), leaseEndedBefore: new Date(now - lease).toISOString() };
    const stranded = await strandedRows(ledger, b, before, PAGE);
    if (stranded.length) await enqueueBatches(this.env, b.orgId, b.id, stranded);
  }

  /**
   * After a boot where the queue lost its messages (queue-epoch.ts), once: the rows handed to the queue before the
   * boot (queued, or claimed by a delivery that died with the runtime) are made queued again and put back on the
   * queue now, instead of waiting for the lease rules below. Only a sending broadcast's go on the queue (a cancelled
   * one's become skipped in its next step). Runs before every other step, so a row is never waited on twice.
   */
  private async takeBackLost(ledger: Database, b: BroadcastRow): Promise<void> {
    const lostBefore = queueLostBefore(this.env);
    if (lostBefore === null || (await this.ctx.storage.get<number>('lostEpoch')) === lostBefore) return;
    if (b.startedAt) {
      const dispatched = (await this.ctx.storage.get<number>('dispatched')) ?? 0;
      for (;;) {
        const ids = await releaseLost(ledger, b, lostBefore, dispatched, PAGE);
        if (ids.length && b.status === 'sending') await enqueueBatches(this.env, b.orgId, b.id, ids);
        if (ids.length < PAGE) break;
      }
    }
    await this.ctx.storage.put('lostEpoch', lostBefore);
  }

  /** How often to look for stranded rows: at most every half lease, and every send of a paced broadcast. */
  private watchEvery(b: BroadcastRow): number {
    return Math.min(WATCH_MS, leaseMs(this.env) / 2, b.sleep > 0 ? b.sleep * 1000 : WATCH_MS);
  }

  /**
   * Nothing more goes out: the queued rows become skipped ("cancelled"), a chunk at a time, and so do the recipients
   * the walk had not reached yet (their rows written skipped), so the cancelled broadcast accounts for every one. A
   * broadcast cancelled before it started has no messages: it is closed in D1, where its status still is.
   */
  private async cancel({ db, ledger }: Stores, first: BroadcastRow): Promise<void> {
    let b = first;
    const store = b.startedAt ? ledger : db;
    for (let round = 0; round < PAGES_PER_ALARM; round++) {
      if (b.startedAt && (await skipCancelled(ledger, b, CANCEL_CHUNK)) > 0) continue;
      b = (await loadBroadcast(store, b.orgId, b.id)) ?? b;
      // Started (it has its snapshot) but not walked to the end.
      if (b.snapshot && !b.enumerated) {
        await writeRecipientPage(db, ledger, b, PAGE, { cancelled: true });
        continue;
      }
      await this.ctx.storage.deleteAlarm();
      await closeCancelled(store, b);
      const now = await loadBroadcast(store, b.orgId, b.id);
      if (now) await publishBroadcastProgress(this.env, b.orgId, now);
      return;
    }
    await this.ctx.storage.setAlarm(Date.now());
  }
}

/** Where a run reads and writes: D1 (the audience, the content, a broadcast before it starts) and the organisation's ledger. */
interface Stores {
  db: Database;
  ledger: Database;
}

/** The object that runs a broadcast. */
export function runnerOf(env: Pick<Env, 'BROADCAST'>, broadcastId: number) {
  return env.BROADCAST.get(env.BROADCAST.idFromName(String(broadcastId)));
}
