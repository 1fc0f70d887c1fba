import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { ledgerDb } from '../ledger/ledger-db';
import { ledgerOfMessage, orgLedger } from '../ledger/registry';
import { recordBroadcastOutcomes, type Reachability } from '../broadcast/outcomes';
import { publishBroadcastProgress } from '../broadcast/progress';
import { rawBatch } from '../crud/raw-batch';
import { messageOutcomeStats } from '../stats/daily';
import { finishStatement, outcomesJson, type RowOutcome } from './claim';

// Writing what became of claimed rows. A batch that sends slowly reports its accepted messages' outcomes in groups
// while it sends (GroupedReports below), so a delivery that dies leaves few messages the server accepted
// unrecorded (those are sent again: the duplicate bound in the README). A report that cannot be written after a few tries goes on the send queue as
// its own message ('record-outcomes') instead of being dropped; the rows stay claimed (by the token) until it is
// written. Writing a report twice changes nothing: it only touches rows the token still holds.

export const OUTCOME_REPORT_KIND = 'record-outcomes';

export type OutcomeReportBody = {
  kind: typeof OUTCOME_REPORT_KIND;
  orgId: number;
  /** The claim the rows were taken with. */
  token: string;
  /** The broadcasts the batch's rows belong to (empty for test messages). */
  broadcastIds: number[];
  outcomes: RowOutcome[];
  /** How the server answered the batch (the unreachable pause) and the send limit's hold: set on the batch's last report. */
  reach: Reachability;
  heldUntil: number | null;
  /** The batch's last report: the broadcast's live progress is published after it. */
  last: boolean;
  /** One of the batch's message ids, which names the ledger they are in (absent in reports queued before there were generations: the first). */
  messageId?: number;
};

/** Writes one report into the organisation's ledger (`db`): the rows' outcomes, and for broadcast rows the counters and the finish check (outcomes.ts). */
async function writeReport(env: Env, db: Database, body: OutcomeReportBody): Promise<void> {
  const json = outcomesJson(body.outcomes);
  if (body.broadcastIds.length === 0) {
    await rawBatch(db, [messageOutcomeStats(db, body.orgId, body.token, json), finishStatement(db, 'messages', body.token, json)]);
    return;
  }
  const progress = await recordBroadcastOutcomes(db, body.orgId, body.broadcastIds, body.token, json, body.reach, body.heldUntil, body.last);
  for (const b of progress) await publishBroadcastProgress(env, body.orgId, b);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The reports of one claimed batch. */
export class OutcomeReporter {
  constructor(
    private env: Env,
    private db: Database,
    private orgId: number,
    private token: string,
    private broadcastIds: number[],
    private messageId: number,
  ) {}

  /**
   * Records `outcomes` now, trying the write three times; if it still fails, queues the report to be written by the
   * 'record-outcomes' consumer. Throws only when the queue refuses it too (the rows then wait for their lease).
   */
  async report(outcomes: RowOutcome[], end?: { reach: Reachability; heldUntil: number | null }): Promise<void> {
    if (outcomes.length === 0 && !end) return;
    const body: OutcomeReportBody = {
      kind: OUTCOME_REPORT_KIND,
      orgId: this.orgId,
      token: this.token,
      broadcastIds: this.broadcastIds,
      outcomes,
      reach: end?.reach ?? { kind: 'unknown' },
      heldUntil: end?.heldUntil ?? null,
      last: Boolean(end),
      messageId: this.messageId,
    };
    for (let tries = 1; ; tries++) {
      try {
        return await writeReport(this.env, this.db, body);
      } catch (error) {
        if (tries < 3) {
          await sleep(200 * tries);
          continue;
        }
        console.error(JSON.stringify({ level: 'error', report: 'queued', org: this.orgId, rows: outcomes.length, error: String(error) }));
        await this.env.SEND_QUEUE.send(body);
        return;
      }
    }
  }
}

/**
 * The 'record-outcomes' consumer: a report its batch could not write, written into the organisation's ledger (`db`
 * is D1, where the ledger is looked up). Throws (the queue retries) while it cannot.
 */
export async function recordQueuedReport(env: Env, db: Database, body: OutcomeReportBody): Promise<void> {
  if (!Number.isSafeInteger(body?.orgId) || typeof body.token !== 'string' || !Array.isArray(body.outcomes) || !Array.isArray(body.broadcastIds)) {
    throw new Error(`malformed ${OUTCOME_REPORT_KIND} body`);
  }
  const handle = Number.isSafeInteger(body.messageId) ? await ledgerOfMessage(env, db, body.orgId, body.messageId!) : await orgLedger(env, db, body.orgId);
  // The organisation is gone, and its messages with it.
  if (handle) await writeReport(env, ledgerDb(handle), body);
}

/**
 * The outcomes of a batch's accepted messages as the provider accepts them, written while the sending goes on: a
 * write starts once `group` outcomes wait and `intervalMs` passed since the batch began or the last write started,
 * and takes up to two groups; one write is in flight at a time; when two groups wait behind it, the sessions that
 * add more wait too (the SMTP loop pauses). So what is accepted and unrecorded at any moment is what arrived in
 * the last interval plus at most four groups, and never more than the batch.
 */
export class GroupedReports {
  private filling: RowOutcome[] = [];
  private writing: Promise<void> = Promise.resolve();
  private busy = false;
  /** Ids whose outcome is written (or queued to be). */
  readonly written = new Set<number>();

  private lastStart = Date.now();

  /**
   * `intervalMs`: no write starts sooner than this after the batch began or the last write started, so a batch that
   * sends fast ends with its one last report, as before, and only a batch that sends slowly (where a crash finds
   * the most accepted and unrecorded) is written in groups.
   */
  constructor(
    private reporter: OutcomeReporter,
    private group: number,
    private intervalMs: number,
  ) {}

  /** Adds an accepted message's outcome; resolves at once unless two groups already wait behind the write in flight. */
  async add(outcome: RowOutcome): Promise<void> {
    this.filling.push(outcome);
    this.startWrite();
    while (this.busy && this.filling.length >= 2 * this.group) await this.writing;
  }

  /** Starts the next write when none is in flight, a group waits and the interval passed; a write ending starts the next. */
  private startWrite(): void {
    if (this.busy || this.filling.length < this.group || Date.now() - this.lastStart < this.intervalMs) return;
    this.lastStart = Date.now();
    const batch = this.filling.splice(0, 2 * this.group);
    this.busy = true;
    this.writing = this.reporter
      .report(batch)
      .then(
        () => {
          for (const o of batch) this.written.add(o.id);
        },
        // The queue refused the report too: these outcomes go with the batch's last report instead.
        (error) => console.error(JSON.stringify({ level: 'error', report: 'group', rows: batch.length, error: String(error) })),
      )
      .finally(() => {
        this.busy = false;
        this.startWrite();
      });
  }

  /** Waits until no write is in flight; what is still waiting (less than a group) goes with the batch's last report. */
  async settle(): Promise<void> {
    while (this.busy) await this.writing;
  }
}
