import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { messages } from '../../db/schema';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../shared/contracts/message';

// A message's delivery status from Twilio's status callbacks. Callbacks arrive out of order, so the status only
// moves forward: a late "sent" never overwrites "delivered". The final ones (delivered, undelivered, failed) are
// one step: the first that arrives stays.

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

/**
 * Moves the organisation's SMS to `status` when that is further than where it stands; answers whether it moved.
 * The error code is kept with undelivered and failed only.
 */
export async function advanceDeliveryStatus(
  db: Database,
  orgId: number,
  target: ReceiptTarget,
  status: DeliveryStatus,
  errorCode: string | null,
): Promise<boolean> {
  const result = await db.run(deliveryStatusStatement(orgId, target, status, errorCode));
  return (result.meta.changes ?? 0) > 0;
}

/** The receipt's one UPDATE (exported for the query-plan test: by SID it must use the SMS-only index of the ledger). */
export function deliveryStatusStatement(orgId: number, target: ReceiptTarget, status: DeliveryStatus, errorCode: string | null): SQL {
  const code = status === 'undelivered' || status === 'failed' ? errorCode : null;
  const which = target.messageId
    ? sql`id = ${target.messageId} AND (external_id IS NULL OR external_id = ${target.externalId})`
    : sql`external_id = ${target.externalId}`;
  // type = 'sms' written out, as in the partial index messages_sms_external (src/modules/ledger/ledger-schema.ts); the
  // unary + keeps SQLite off the org_id indexes, which in a ledger hold every row (it took them after PRAGMA optimize).
  return sql`UPDATE ${messages} SET delivery_status = ${status}, delivery_error_code = ${code}
    WHERE ${which} AND +org_id = ${orgId} AND type = 'sms' AND ${stepOf(sql`delivery_status`)} < ${STEP[status]}`;
}
