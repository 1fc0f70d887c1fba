import { sql } from 'drizzle-orm';
import { QUEUE_MAX_DELIVERIES } from '../../queue-names';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { OutgoingMessage, SendResult } from '../../lib/transport/types';
import type { Reachability } from '../broadcast/outcomes';
import { suppressAddress } from '../bounce/suppress';
import type { SendChannels } from './channels';
import { claimRows, type RowOutcome } from './claim';
import { IsolateDeath } from './consumer-death';
import { CLAIMED_COLUMNS, ComposeCache, composeBatch, type ClaimedMessage, type Composed } from './compose';
import { BATCH_DEADLINE_MS, leaseMs, REPORT_GROUP, REPORT_INTERVAL_MS, startHeartbeat } from './lease';
import { GroupedReports, OutcomeReporter } from './outcome-report';
import { holdIntegration, isGated, releaseIntegration, reserveSends } from './send-gate';
import { enqueueBatches, SEND_BATCH_KIND, type SendBatchBody } from './send-queue';

// The send queue's consumer of a batch of message ids (one test message, or up to BATCH_SIZE (send-queue.ts) recipients of a
// broadcast): claim the batch in one statement (a short lease the heartbeat renews while it works: lease.ts),
// render it, send it over the integration's open session (pipelined SMTP, or Twilio a few at a time), recording
// the accepted messages' outcomes with the broadcast's counters in groups of one to two REPORT_GROUPs while the
// sending goes on (outcome-report.ts), and the rest at the end. Delivery is at least once, so everything here is safe to run twice.

/**
 * Test hooks: send in chunks of this size and call `afterChunk` after each (a fault test throws there); start an
 * outcome write at `reportGroup` accepted messages and `reportIntervalMs` instead of REPORT_GROUP and REPORT_INTERVAL_MS.
 */
export interface DeliverFaults {
  chunkSize?: number;
  afterChunk?: (sentSoFar: number) => void | Promise<void>;
  reportGroup?: number;
  reportIntervalMs?: number;
}

/**
 * A provider's "try later" is not the recipient's fault: it is tried again later this many times (the integration
 * held longer each time, up to 5 minutes) before the message fails as retryable.
 */
export const THROTTLED_TRIES = 20;

/** The outcome of one send result for a row that has now been tried `attempts` times. */
function outcomeOf(id: number, result: SendResult, attempts: number): RowOutcome {
  if (result.ok) {
    // A cc or bcc the server refused does not undo the send to `to`: the message says which and why.
    const note = result.refused?.length
      ? `Sent; refused by the server: ${result.refused.map((r) => `${r.field} ${r.address}: ${r.error}`).join('; ')}`.slice(0, 500)
      : undefined;
    return { id, status: 'sent', externalId: result.externalId, ...(note && { note }) };
  }
  if (result.cause === 'throttled' && attempts < THROTTLED_TRIES) return { id, status: 'queued', error: result.error, later: true };
  if (result.retryable && attempts < QUEUE_MAX_DELIVERIES) return { id, status: 'queued', error: result.error };
  return { id, status: 'failed', error: result.error, retryable: result.retryable };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface GroupResult {
  /** Set when rows were held back by the integration's limit or hold: queued again this much later, attempt refunded. */
  deferMs: number | null;
  reach: Reachability;
  /** When the send limit made this group wait noticeably: until when (epoch ms), for the broadcast view. */
  waitedUntil?: number;
}

/** Whether the server was reached, from a chunk's results. */
function reachOf(results: SendResult[], before: Reachability): Reachability {
  if (before.kind === 'reached' || results.some((r) => r.ok)) return { kind: 'reached' };
  const failure = results.find((r) => !r.ok && r.cause === 'unreachable');
  if (failure && !failure.ok && results.every((r) => !r.ok && r.cause === 'unreachable')) return { kind: 'unreachable', error: failure.error };
  return before.kind === 'unreachable' ? before : { kind: 'unknown' };
}

/** What sendGroup needs besides the messages: where outcomes go, and until when it may keep sending. */
interface GroupContext {
  /** Every row's outcome as soon as it is known, so a failure part-way still records what went out. */
  outcomes: Map<number, RowOutcome>;
  /** Hears each accepted message's outcome as the provider accepts it (written a group at a time). */
  accepted: (outcome: RowOutcome) => Promise<void>;
  /** Epoch ms after which no further chunk starts (the batch deadline: its claim is no longer renewed). */
  deadline: number;
  faults: DeliverFaults;
}

/** A row's outcome; a broadcast row keeps the subject it went out with (rendered per recipient), for the message list. */
function outcomeFor(row: ClaimedMessage, message: OutgoingMessage, result: SendResult): RowOutcome {
  const outcome = outcomeOf(row.id, result, row.attempts);
  if (outcome.status === 'sent' && row.broadcast_id !== null) outcome.subject = message.subject ?? null;
  return outcome;
}

/**
 * A recipient the server refused for good during the session because the mailbox does not exist (cause 'mailbox')
 * is suppressed like a hard bounce that came back later (src/modules/bounce): the next broadcast skips the address.
 */
async function suppressRefusedMailboxes(db: Database, orgId: number, part: { row: ClaimedMessage }[], results: SendResult[]): Promise<void> {
  for (const [k, { row }] of part.entries()) {
    const result = results[k];
    if (row.type !== 'email' || result.ok || result.cause !== 'mailbox') continue;
    await suppressAddress(db, {
      orgId,
      address: row.to_address,
      reason: 'bounce',
      messageId: row.id,
      info: `Refused by the server: ${result.error.slice(0, 300)} (message ${row.id})`,
    });
  }
}

/** Sends one integration's share of the batch, in chunks the send gate allows (the whole share when it has no limit). */
async function sendGroup(
  db: Database,
  orgId: number,
  channels: SendChannels,
  integrationId: number,
  items: { row: ClaimedMessage; message: OutgoingMessage }[],
  { outcomes, accepted, deadline, faults }: GroupContext,
): Promise<GroupResult> {
  const channel = await channels.get(db, orgId, integrationId);
  if ('problem' in channel) {
    for (const { row } of items) outcomes.set(row.id, outcomeOf(row.id, { ok: false, retryable: channel.retryable, error: channel.problem }, row.attempts));
    return { deferMs: null, reach: { kind: 'unknown' } };
  }
  // DKIM (issue 37): signed with the sender's verified domain unless the integration's provider signs.
  const signers = channel.integration.type === 'smtp' && channel.integration.dkimSigning ? await channels.dkimSigners(orgId) : null;
  const gated = isGated(channel.integration);
  const chunk = faults.chunkSize ?? (gated && channel.integration.maxRate ? Math.max(1, Math.floor(channel.integration.maxRate)) : items.length);
  let reach: Reachability = { kind: 'unknown' };
  let waitedUntil: number | undefined;
  for (let start = 0; start < items.length; start += chunk) {
    const part = items.slice(start, start + chunk);
    if (Date.now() > deadline) {
      // Past the deadline the claim is no longer renewed: give the rest back (attempt refunded) for a new delivery.
      for (const { row } of items.slice(start)) outcomes.set(row.id, { id: row.id, status: 'queued', error: null, later: true, refund: true });
      return { deferMs: 1_000, reach, waitedUntil };
    }
    if (gated) {
      // Single messages (no broadcast) reserve on their own line: a broadcast cannot take their share.
      const lane = part[0].row.broadcast_id === null ? 'single' : 'bulk';
      const reservation = await reserveSends(await channels.ledger(db, orgId), channel.integration, part.length, lane);
      if (!reservation.granted) {
        for (const { row } of items.slice(start)) outcomes.set(row.id, { id: row.id, status: 'queued', error: null, later: true, refund: true });
        return { deferMs: reservation.retryInMs, reach, waitedUntil };
      }
      if (reservation.waitMs > 1_000) waitedUntil = Date.now() + reservation.waitMs;
      if (reservation.waitMs > 0) await sleep(reservation.waitMs);
    }
    // An email's envelope sender and Return-Path: the message's own, else the channel's for it (a bounce address).
    const returnPaths = await Promise.all(part.map((p) => (p.row.type === 'email' ? (p.message.returnPath ?? channel.returnPathFor(p.row.id)) : null)));
    const dkim = signers ? await Promise.all(part.map((p) => (p.row.type === 'email' ? signers.signerFor(p.message.from.address) : null))) : null;
    const results = await channel.transport.sendMany(
      part.map((p, k) =>
        p.row.type === 'email'
          ? {
              ...p.message,
              returnPath: returnPaths[k],
              ...(channel.headersFor && { headers: { ...p.message.headers, ...channel.headersFor(p.row.id) } }),
              ...(dkim?.[k] && { dkim: dkim[k] }),
            }
          : p.message,
      ),
      (k, result) => accepted(outcomeFor(part[k].row, part[k].message, result)),
    );
    for (const [k, { row, message }] of part.entries()) outcomes.set(row.id, outcomeFor(row, message, results[k]));
    await suppressRefusedMailboxes(db, orgId, part, results);
    reach = reachOf(results, reach);
    if (results.some((r) => !r.ok && r.cause === 'throttled')) {
      // The provider pushes back: hold the integration and give the rest of the batch back for later.
      const until = await holdIntegration(await channels.ledger(db, orgId), db, integrationId);
      for (const { row } of items.slice(start + chunk)) outcomes.set(row.id, { id: row.id, status: 'queued', error: null, later: true, refund: true });
      return { deferMs: Math.max(1_000, until - Date.now()), reach, waitedUntil };
    }
    await faults.afterChunk?.(start + part.length);
  }
  if (channel.integration.throttleLevel > 0) await releaseIntegration(await channels.ledger(db, orgId), db, integrationId);
  return { deferMs: null, reach, waitedUntil };
}

/**
 * The 'send-batch' consumer. `attempt` is the queue's delivery count. Throws (so the queue retries the batch
 * with backoff) when some rows failed in a way worth retrying; rows held back by a send limit (attempt given
 * back) or a provider's "try later" go on a new, delayed queue message instead.
 */
export async function deliverBatch(
  env: Env,
  body: Pick<SendBatchBody, 'orgId' | 'ids'>,
  attempt: number,
  channels: SendChannels,
  faults: DeliverFaults = {},
): Promise<void> {
  const orgId = body?.orgId;
  const ids = body?.ids;
  if (!Number.isSafeInteger(orgId) || !Array.isArray(ids) || ids.length === 0 || ids.length > 1000 || !ids.every(Number.isSafeInteger)) {
    throw new Error(`malformed ${SEND_BATCH_KIND} body`);
  }
  const db = channels.db;
  // The messages are in the ledger their ids name (src/modules/ledger); an organisation that is gone has none.
  const ledger = await channels.messageLedgerDb(orgId, ids[0]);
  if (!ledger) return;
  const lease = leaseMs(env);
  // Only rows of this organisation, of a broadcast only while it is sending (paused or cancelled: left queued), and a
  // scheduled single message only once its time came (the ledger's watch hands it over then: transactional/lane.ts).
  const claim = await claimRows<ClaimedMessage>(ledger, {
    table: 'messages',
    ids,
    columns: CLAIMED_COLUMNS,
    where: sql`+org_id = ${orgId} AND (+broadcast_id IS NULL OR +broadcast_id IN (SELECT id FROM broadcasts WHERE org_id = ${orgId} AND status = 'sending'))
      AND (+delayed_at IS NULL OR +delayed_at <= ${new Date().toISOString()})`,
    leaseMs: lease,
  });
  if (claim.rows.length === 0) return;
  for (const row of claim.rows) row.attempts = Math.max(Number(row.attempts), attempt);
  const heartbeat = startHeartbeat(
    ledger,
    'messages',
    claim.token,
    claim.rows.map((r) => r.id),
    lease,
  );
  const broadcastIds = [...new Set(claim.rows.map((r) => r.broadcast_id).filter((id): id is number => id !== null))];
  const reporter = new OutcomeReporter(env, ledger, orgId, claim.token, broadcastIds, claim.rows[0].id);

  const outcomes = new Map<number, RowOutcome>();
  const grouped = new GroupedReports(reporter, faults.reportGroup ?? REPORT_GROUP, faults.reportIntervalMs ?? REPORT_INTERVAL_MS);
  const accepted = (outcome: RowOutcome) => {
    outcomes.set(outcome.id, outcome);
    return grouped.add(outcome);
  };
  const deadline = Date.now() + BATCH_DEADLINE_MS;
  const deferred: number[] = [];
  let deferMs = 0;
  let heldUntil: number | null = null;
  let reach: Reachability = { kind: 'unknown' };
  let crash: unknown = null;
  try {
    const composed = await composeBatch(env, db, orgId, claim.rows, new ComposeCache(channels.broadcasts));
    const groups = new Map<number, { row: ClaimedMessage; message: OutgoingMessage }[]>();
    for (const c of composed as Composed[]) {
      if ('failure' in c) outcomes.set(c.row.id, { id: c.row.id, status: 'failed', error: c.failure, retryable: false });
      else if ('skip' in c) outcomes.set(c.row.id, { id: c.row.id, status: 'skipped', error: c.skip });
      else groups.set(c.integrationId, [...(groups.get(c.integrationId) ?? []), { row: c.row, message: c.message }]);
    }
    for (const [integrationId, items] of groups) {
      const result = await sendGroup(db, orgId, channels, integrationId, items, { outcomes, accepted, deadline, faults });
      reach = result.reach.kind === 'unknown' ? reach : result.reach;
      if (result.deferMs !== null) deferMs = Math.max(deferMs, result.deferMs);
      const held = result.deferMs !== null ? Date.now() + result.deferMs : result.waitedUntil;
      if (held) heldUntil = Math.max(heldUntil ?? 0, held);
    }
  } catch (error) {
    crash = error;
  }
  if (crash instanceof IsolateDeath) {
    // The crash stage's killed isolate (consumer-death.ts) writes nothing more: its rows wait for their lease.
    await heartbeat.stop();
    throw crash;
  }
  // Whatever happened, record what is known: rows sent are sent; rows the crash left unsent go back to the
  // queue (the attempt counts, so a message that crashes every delivery ends failed instead of looping).
  for (const row of claim.rows) {
    if (!outcomes.has(row.id)) {
      const error = `Interrupted: ${String(crash).slice(0, 300)}`;
      outcomes.set(
        row.id,
        row.attempts < QUEUE_MAX_DELIVERIES ? { id: row.id, status: 'queued', error } : { id: row.id, status: 'failed', error, retryable: true },
      );
    }
    const outcome = outcomes.get(row.id)!;
    if (outcome.status === 'queued' && outcome.later) deferred.push(row.id);
  }
  const list = [...outcomes.values()];
  // The last report: what no group wrote (failures, skips, rows given back, the last accepted ones), the server's
  // reachability and the send limit's hold, then the live progress.
  try {
    await grouped.settle();
    await reporter.report(
      list.filter((o) => !grouped.written.has(o.id)),
      { reach, heldUntil },
    );
  } finally {
    await heartbeat.stop();
  }
  if (crash) throw crash;
  if (deferred.length) await enqueueBatches(env, orgId, claim.rows[0].broadcast_id, deferred, Math.ceil(Math.max(deferMs, 1_000) / 1000));
  const retry = list.filter((o) => o.status === 'queued' && !o.later);
  if (retry.length) {
    const first = retry[0] as Extract<RowOutcome, { status: 'queued' }>;
    throw new Error(`${retry.length} message(s) not sent yet (attempt ${attempt} of ${QUEUE_MAX_DELIVERIES}): ${first.error}`);
  }
}
