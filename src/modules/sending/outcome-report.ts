import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { recordBroadcastOutcomes, type Reachability } from '../broadcast/outcomes';
import { publishBroadcastProgress } from '../broadcast/progress';
import { rawBatch } from '../crud/raw-batch';
import { messageOutcomeStats } from '../stats/daily';
import { finishStatement, outcomesJson, type RowOutcome } from './claim';

// Writing what became of claimed rows. A batch reports its outcomes in groups as they come (deliver-batch.ts), so
// a delivery that dies leaves at most one group of messages the server accepted unrecorded (those are sent again:
// the duplicate bound in the README). A report that cannot be written after a few tries goes on the send queue as
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
};

/** Writes one report: the rows' outcomes, and for broadcast rows the counters and the finish check (outcomes.ts). */
async function writeReport(env: Env, db: Database, body: OutcomeReportBody): Promise<void> {
  const json = outcomesJson(body.outcomes);
  if (body.broadcastIds.length === 0) {
    await rawBatch(db, [messageOutcomeStats(db, body.orgId, body.token, json), finishStatement(db, 'messages', body.token, json)]);
    return;
  }
  const progress = await recordBroadcastOutcomes(db, body.orgId, body.broadcastIds, body.token, json, body.reach, body.heldUntil);
  if (body.last) for (const b of progress) await publishBroadcastProgress(env, body.orgId, b);
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

/** The 'record-outcomes' consumer: a report its batch could not write. Throws (the queue retries) while it cannot. */
export async function recordQueuedReport(env: Env, db: Database, body: OutcomeReportBody): Promise<void> {
  if (!Number.isSafeInteger(body?.orgId) || typeof body.token !== 'string' || !Array.isArray(body.outcomes) || !Array.isArray(body.broadcastIds)) {
    throw new Error(`malformed ${OUTCOME_REPORT_KIND} body`);
  }
  await writeReport(env, db, body);
}

/**
 * The outcomes of a batch's accepted messages as the provider accepts them, written `group` at a time while the
 * sending goes on: one write in flight, and a full group waits for it (the transport pauses meanwhile). So at most
 * two groups of accepted messages are unrecorded at any moment, the one being written and the one filling (plus one
 * message per further SMTP session of the batch, each waiting on its own add).
 */
export class GroupedReports {
  private filling: RowOutcome[] = [];
  private writing: Promise<void> = Promise.resolve();
  /** Ids whose outcome is written (or queued to be). */
  readonly written = new Set<number>();

  constructor(
    private reporter: OutcomeReporter,
    private group: number,
  ) {}

  /**
   * Adds an accepted message's outcome; resolves at once unless a full group has to wait for the write in flight.
   * Several SMTP sessions of one batch add at once: only the caller that finds no newer write takes the group.
   */
  async add(outcome: RowOutcome): Promise<void> {
    this.filling.push(outcome);
    while (this.filling.length >= this.group) {
      const inFlight = this.writing;
      await inFlight;
      if (this.writing !== inFlight) continue; // another caller started the next write: wait for that one
      this.writing = this.write(this.filling.splice(0, this.group));
    }
  }

  private write(group: RowOutcome[]): Promise<void> {
    return this.reporter.report(group).then(
      () => {
        for (const o of group) this.written.add(o.id);
      },
      // The queue refused the report too: these outcomes go with the batch's last report instead.
      (error) => console.error(JSON.stringify({ level: 'error', report: 'group', rows: group.length, error: String(error) })),
    );
  }

  /** Waits for the write in flight; what is still filling goes with the batch's last report. */
  async settle(): Promise<void> {
    await this.writing;
  }
}
