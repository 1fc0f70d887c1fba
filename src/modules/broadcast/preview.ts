import { count, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { contacts } from '../../db/schema';
import { BROADCAST_LIMITS, type RecipientsPreview } from '../../shared/contracts/broadcast';
import { recipientConditions, recipientPage, type RecipientRule } from './recipients';

/** How many contacts the rule selects. */
export async function countRecipients(db: Database, rule: RecipientRule): Promise<number> {
  const [row] = await db.select({ total: count() }).from(contacts).where(recipientConditions(rule));
  return row?.total ?? 0;
}

/** The form's preview: how many contacts match, how many of them would be skipped, and a few of them. */
export async function previewRecipients(db: Database, rule: RecipientRule): Promise<RecipientsPreview> {
  const total = await countRecipients(db, rule);
  const [sample, skipped] = await Promise.all([
    db.all<{ id: number; name: string; address: string | null; reason: string | null }>(recipientPage(rule, 0, null, BROADCAST_LIMITS.sampleSize)),
    total <= BROADCAST_LIMITS.previewSkipCountMax
      ? db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${recipientPage(rule, 0, null, -1)}) WHERE reason IS NOT NULL`)
      : Promise.resolve(null),
  ]);
  return {
    total,
    skipped: skipped ? Number(skipped[0]?.n ?? 0) : null,
    sample: sample.map((r) => ({ id: Number(r.id), name: r.name, address: r.address, skipped_reason: r.reason })),
  };
}
