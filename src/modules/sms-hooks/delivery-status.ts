import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { broadcasts, messages } from '../../db/schema';
import { DELIVERY_STATUSES, REPORTED_OUTCOMES, type DeliveryStatus } from '../../shared/contracts/message';
import { rawBatch } from '../crud/raw-batch';

// A message's delivery status from Twilio's status callbacks. Callbacks arrive out of order, so the status only
// moves forward: a late "sent" never overwrites "delivered". The final ones (delivered, undelivered, failed) are
// one step: the first that arrives stays. A broadcast's SMS whose first final report is undelivered or failed counts
// once in the broadcast's `undelivered`, in the same ledger transaction as the report (its overview's figure, the
// recipients' `?outcome=undelivered` count).

// An SMS receipt never moves an email's bounce report (those are an email's only: the receipt's UPDATE is for SMS).
const STEP: Record<DeliveryStatus, number> = {
  queued: 0,
  sending: 1,
  sent: 2,
  delivered: 3,
  undelivered: 3,
  failed: 3,
  soft_bounced: 3,
  bounced: 4,
  complained: 4,
};

/** Twilio's MessageStatus as ours; null for statuses that say nothing of delivery (accepted, scheduled, read...). */
export function deliveryStatusOf(value: string | null | undefined): DeliveryStatus | null {
  return (DELIVERY_STATUSES as readonly string[]).includes(value ?? '') ? (value as DeliveryStatus) : null;
}

const stepOf = (column: unknown) =>
  sql`CASE ${column} ${sql.join(
    Object.entries(STEP).map(([status, step]) => sql`WHEN ${status} THEN ${step}`),
    sql` `,
  )} ELSE -1 END`;

/**
 * The SMS a receipt is about: by our message id when its StatusCallback named one (`?m=`, since Nov 2026; it finds
 * the message even before its provider id is recorded, and a provider id that disagrees finds nothing), else by the
 * provider's message id.
 */
export interface ReceiptTarget {
  messageId: number | null;
  externalId: string;
}

/** What a receipt did: whether the message moved, and the broadcast whose undelivered count it moved (else null). */
export interface ReceiptApplied {
  moved: boolean;
  undeliveredIn: number | null;
}

/**
 * Moves the organisation's SMS to `status` when that is further than where it stands, counting it in its broadcast's
 * undelivered when it first reads so. The error code is kept with undelivered and failed only.
 */
export async function advanceDeliveryStatus(
  db: Database,
  orgId: number,
  target: ReceiptTarget,
  status: DeliveryStatus,
  errorCode: string | null,
): Promise<ReceiptApplied> {
  const update = db.run(deliveryStatusStatement(orgId, target, status, errorCode));
  const [moved, counted] = await rawBatch(db, countsUndelivered(status) ? [update, db.run(undeliveredCountStatement(orgId, target))] : [update]);
  const broadcastId = counted?.results[0]?.id;
  return { moved: (moved.meta.changes ?? 0) > 0, undeliveredIn: broadcastId === undefined ? null : Number(broadcastId) };
}

/** Whether a report of `status` makes the message read as undelivered (the outcome rule's own list). */
const countsUndelivered = (status: DeliveryStatus) => (REPORTED_OUTCOMES as Partial<Record<DeliveryStatus, string>>)[status] === 'undelivered';

/** The receipt's one UPDATE (exported for the query-plan test: by SID it must use the SMS-only index of the ledger). */
export function deliveryStatusStatement(orgId: number, target: ReceiptTarget, status: DeliveryStatus, errorCode: string | null): SQL {
  const code = status === 'undelivered' || status === 'failed' ? errorCode : null;
  const which = targetCondition(target);
  // type = 'sms' written out, as in the partial index messages_sms_external (src/modules/ledger/ledger-schema.ts); the
  // unary + keeps SQLite off the org_id indexes, which in a ledger hold every row (it took them after PRAGMA optimize).
  return sql`UPDATE ${messages} SET delivery_status = ${status}, delivery_error_code = ${code}
    WHERE ${which} AND +org_id = ${orgId} AND type = 'sms' AND ${stepOf(sql`delivery_status`)} < ${STEP[status]}`;
}

/**
 * Adds 1 to the undelivered count of the broadcast the receipt's SMS belongs to, only when the receipt's UPDATE just
 * before it in the batch moved the message (changes()): the first final report is the only one that moves it, so a
 * message counts once whatever order and repeats its reports come in. Exported for the query-plan test.
 */
export function undeliveredCountStatement(orgId: number, target: ReceiptTarget): SQL {
  // rev moves with it for the projection into D1 (the ledger's trigger watches the older counters only).
  return sql`UPDATE ${broadcasts} SET undelivered = undelivered + 1, rev = rev + 1
    WHERE changes() = 1 AND org_id = ${orgId}
      AND id = (SELECT broadcast_id FROM ${messages} WHERE ${targetCondition(target)} AND +org_id = ${orgId} AND type = 'sms')
    RETURNING id`;
}

/** The receipt's message: by our id when the callback carried one (and the provider id agrees), else by the SID. */
function targetCondition(target: ReceiptTarget): SQL {
  return target.messageId
    ? sql`id = ${target.messageId} AND (external_id IS NULL OR external_id = ${target.externalId})`
    : sql`external_id = ${target.externalId}`;
}
