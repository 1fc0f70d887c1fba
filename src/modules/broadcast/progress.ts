import type { Env } from '../../env';
import type { BroadcastProgress, BroadcastStatus } from '../../shared/contracts/broadcast';
import { publishToOrg } from '../live/publish';
import type { BroadcastRow } from './run-store';

/**
 * Its recipients: the message rows once the walk is complete, before that the contacts counted when it started
 * (or the rows written so far, when more: a contact's row is written whatever happened to it since).
 */
export const recipientTotal = (b: Pick<BroadcastRow, 'total' | 'enumerated' | 'plannedTotal'>) =>
  b.enumerated ? b.total : Math.max(b.total, b.plannedTotal ?? 0);

/** The moving part of a broadcast, as the API and the live channel show it. */
export function progressOf(b: BroadcastRow, now = Date.now()): BroadcastProgress {
  return {
    id: b.id,
    status: b.status as BroadcastStatus,
    total: recipientTotal(b),
    recipients_final: b.enumerated,
    sent: b.sent,
    failed: b.failed,
    skipped: b.skipped,
    started_at: b.startedAt,
    finished_at: b.finishedAt,
    paused_reason: b.pausedReason,
    held_until: b.heldUntil && Date.parse(b.heldUntil) > now ? b.heldUntil : null,
    expected_finish_at: expectedFinish(b, now),
    updated_at: b.updatedAt,
    engagement: {
      opens: b.opens,
      opens_unique: b.opensUnique,
      human_opens: b.humanOpens,
      human_opens_unique: b.humanOpensUnique,
      clicks: b.clicks,
      clicks_unique: b.clicksUnique,
      human_clicks: b.humanClicks,
      human_clicks_unique: b.humanClicksUnique,
      unsubscribes: b.unsubscribes,
      bounces: b.bounces,
      complaints: b.complaints,
      undelivered: b.undelivered,
    },
  };
}

/**
 * When a sending broadcast should end: with a sleep, one message every `sleep` seconds; otherwise at the
 * pace it has kept since it started. Null when it is not sending or nothing has gone yet.
 */
function expectedFinish(b: BroadcastRow, now: number): string | null {
  if (b.status !== 'sending' || !b.startedAt) return null;
  const left = Math.max(0, recipientTotal(b) - b.sent - b.failed - b.skipped);
  if (b.sleep > 0) return new Date(now + left * b.sleep * 1000).toISOString();
  const done = b.sent + b.failed;
  const elapsed = now - Date.parse(b.startedAt);
  if (done === 0 || elapsed <= 0) return null;
  return new Date(now + (left * elapsed) / done).toISOString();
}

/** While a broadcast sends, its counters are pushed at most this often from one isolate (status changes always go). */
const PUSH_EVERY_MS = 500;
const lastPush = new Map<number, { at: number; status: string }>();

/**
 * Pushes the broadcast's progress to the organisation's consoles (best effort). Counter-only changes are
 * thinned out per isolate: a broadcast finishing hundreds of batches a second needs no more than a few pushes;
 * a change of status is always pushed, and the last push of a run is the finished one. Engagement changes pass
 * `thin: false`: they come a counted batch at a time already, and a dropped push would leave the view stale.
 */
export async function publishBroadcastProgress(env: Env, orgId: number, b: BroadcastRow, options: { thin?: boolean } = {}): Promise<void> {
  const now = Date.now();
  const last = lastPush.get(b.id);
  if (options.thin !== false && last && last.status === b.status && now - last.at < PUSH_EVERY_MS) return;
  if (lastPush.size > 1000) lastPush.clear();
  lastPush.set(b.id, { at: now, status: b.status });
  await publishToOrg(env, orgId, { type: 'broadcast.progress', broadcast: progressOf(b) });
}
