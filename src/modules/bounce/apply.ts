import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { createDb } from '../../db/client';
import type { Env } from '../../env';
import { publishBroadcastProgress } from '../broadcast/progress';
import { loadBroadcast } from '../broadcast/run-store';
import { rawBatch } from '../crud/raw-batch';
import { ledgerDb } from '../ledger/ledger-db';
import { ledgerOfMessage } from '../ledger/registry';
import { countIfChanged } from '../stats/daily';
import { categoriesOf, recountUnsubscribes, unsubscribe } from '../unsubscribe/store';
import type { BounceRef } from './address';
import type { BounceReport } from './report';
import { countSoftBounce } from './soft-bounces';
import { suppressAddress } from './suppress';
import { announceEvents } from '../event/announce';

// What a bounce or a spam complaint does to the organisation's message, whoever reported it (a mail to the bounce
// address, handle.ts, or a provider's signed event, sendgrid-routes.ts):
// - the message gets its delivery report: bounced (hard, 5.x.x), soft_bounced (4.x.x) or complained, with the
//   status code and the diagnostic; the broadcast and the day count hard bounces and complaints;
// - a hard bounce or a complaint suppresses the address for the organisation at once (suppress.ts), soft bounces at
//   the organisation's limit (soft-bounces.ts); the runner then skips it with the reason;
// - a complaint also unsubscribes the contact from every category (source "complaint").
// Each step is idempotent (a soft bounce counts once per message): the same report twice changes nothing more, and a lesser report never overwrites a
// graver one (a complaint outranks a bounce, a hard bounce a soft one).

export type AppliedOutcome = 'bounced' | 'soft_bounced' | 'complained';
export type DeliveryReport = Extract<BounceReport, { kind: 'bounce' | 'complaint' }>;

interface SentMessage {
  id: number;
  org_id: number;
  to_address: string;
  contact_id: number | null;
  broadcast_id: number | null;
}

/**
 * Applies `report` to the email `ref` names; null when there is no such email of that organisation (or, with
 * `recipient`, not to that address), which changes nothing.
 */
export async function applyDeliveryReport(env: Env, ref: BounceRef, report: DeliveryReport, recipient?: string): Promise<AppliedOutcome | null> {
  const db = createDb(env.DB);
  const handle = await ledgerOfMessage(env, db, ref.orgId, ref.messageId);
  if (!handle) return null;
  const ledger = ledgerDb(handle);
  const m = await ledger.get<SentMessage | undefined>(sql`
    SELECT id, org_id, to_address, contact_id, broadcast_id FROM messages WHERE id = ${ref.messageId} AND +org_id = ${ref.orgId} AND type = 'email'`);
  if (!m || (recipient !== undefined && recipient.trim().toLowerCase() !== m.to_address.toLowerCase())) return null;

  const outcome: AppliedOutcome = report.kind === 'complaint' ? 'complained' : report.hard ? 'bounced' : 'soft_bounced';
  await recordReport(ledger, m, outcome, report);
  // The broadcast view's bounce and complaint figures move without a reload (best effort).
  if (m.broadcast_id !== null && outcome !== 'soft_bounced') {
    const b = await loadBroadcast(ledger, m.org_id, m.broadcast_id);
    if (b) await publishBroadcastProgress(env, m.org_id, b, { thin: false }).catch(() => undefined);
  }
  // The steps in D1 run again with a repeated report (each is idempotent): a report whose first handling was cut off
  // between the ledger and D1 still suppresses when it comes again.
  if (outcome === 'soft_bounced') {
    await countSoftBounce(db, m.org_id, m.to_address, m.id);
    // At the limit it suppresses: that event (D1's outbox) into the stream (src/modules/event).
    await announceEvents(env, m.org_id);
    return outcome;
  }
  const code = report.kind === 'bounce' ? report.status : null;
  await suppressAddress(db, {
    orgId: m.org_id,
    address: m.to_address,
    reason: outcome === 'complained' ? 'complaint' : 'bounce',
    messageId: m.id,
    info: outcome === 'complained' ? `Reported as spam (message ${m.id})` : `Hard bounce ${code} (message ${m.id})`,
  });
  if (outcome === 'complained' && m.contact_id !== null) await unsubscribeEverywhere(env, db, m);
  // The suppression's and unsubscribes' events (D1's outbox) into the stream (src/modules/event).
  await announceEvents(env, m.org_id);
  return outcome;
}

/** Writes the message's report in its ledger, in one transaction with its counts (only when the report moved). */
async function recordReport(ledger: Database, m: SentMessage, outcome: AppliedOutcome, report: DeliveryReport): Promise<void> {
  const code = report.kind === 'bounce' ? report.status : null;
  const diagnostic = report.kind === 'bounce' ? report.diagnostic : `Reported as spam (${report.feedbackType})`;
  const counter = outcome === 'bounced' ? 'bounces' : outcome === 'complained' ? 'complaints' : null;
  // Each counting statement runs only when the one before it changed a row (changes()): the message's report moved,
  // then the day's count. The broadcast's revision is bumped here for the projection into D1 (the ledger's trigger
  // watches the older counters only).
  await rawBatch(ledger, [
    ledger.run(sql`UPDATE messages SET delivery_status = ${outcome}, delivery_error_code = ${code}, error = coalesce(error, ${diagnostic})
      WHERE id = ${m.id} AND +org_id = ${m.org_id} AND ${rank(sql`delivery_status`)} < ${RANK[outcome]}`),
    ...(counter ? [countIfChanged(ledger, m.org_id, counter)] : []),
    ...(counter && m.broadcast_id !== null
      ? [
          ledger.run(sql`UPDATE broadcasts SET ${sql.raw(counter)} = ${sql.raw(counter)} + 1, rev = rev + 1
            WHERE id = ${m.broadcast_id} AND org_id = ${m.org_id} AND changes() = 1`),
        ]
      : []),
  ]);
}

const RANK: Record<AppliedOutcome, number> = { soft_bounced: 1, bounced: 2, complained: 3 };
const rank = (column: unknown) => sql`CASE ${column} WHEN 'soft_bounced' THEN 1 WHEN 'bounced' THEN 2 WHEN 'complained' THEN 3 ELSE 0 END`;

/** A complaint unsubscribes the contact from every category, as if they had left each (source "complaint"). */
async function unsubscribeEverywhere(env: Env, db: Database, m: SentMessage): Promise<void> {
  const who = { orgId: m.org_id, contactId: m.contact_id as number, messageId: m.id, broadcastId: m.broadcast_id };
  const changes = [];
  for (const { id } of await categoriesOf(db, m.org_id)) {
    changes.push(await unsubscribe(db, who, { subscriptionId: id, reason: 'spam', comment: null, source: 'complaint' }));
  }
  await recountUnsubscribes(env, db, m.org_id, changes);
}
