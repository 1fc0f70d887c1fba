import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { SuppressionReason } from '../../shared/contracts/suppression';

// The one way the platform suppresses an address: a blacklist entry with its reason and the message that caused it
// (shown on the contact and the blacklist, lifted there: liftSuppression). An entry already there (a person's, or an earlier
// bounce's) is left as it is. Only while the organisation exists.

export interface Suppression {
  orgId: number;
  address: string;
  reason: SuppressionReason;
  messageId: number;
  /** A line for people: what happened (the status code, the count). */
  info: string;
}

export async function suppressAddress(db: Database, s: Suppression): Promise<void> {
  if (!s.address) return;
  await db.run(sql`INSERT INTO blacklist (org_id, type, value, info, reason, message_id)
    SELECT ${s.orgId}, 'email', ${s.address}, ${s.info}, ${s.reason}, ${s.messageId}
    WHERE EXISTS (SELECT 1 FROM organizations WHERE id = ${s.orgId})
    ON CONFLICT (org_id, type, value) DO NOTHING`);
}

/**
 * Lifts a suppression (the blacklist entry `id` of the organisation): the address is mailed again, and its soft
 * bounces start again from nothing (a trigger does that for every blacklist delete, migration 0023). Answers whether
 * there was one.
 */
export async function liftSuppression(db: Database, orgId: number, id: number): Promise<boolean> {
  const [gone] = await db.all<{ id: number }>(sql`DELETE FROM blacklist WHERE id = ${id} AND org_id = ${orgId} RETURNING id`);
  return gone !== undefined;
}
