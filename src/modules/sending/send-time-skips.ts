import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { SKIP_REASONS } from '../../shared/contracts/broadcast';

// A broadcast's recipients are decided page by page before they are sent; a contact who unsubscribes (or a number
// that replies STOP) after its page was made but before its batch goes is left out here, just before sending:
// skipped with the reason, never sent. Two lookups per batch, by the batch's own contacts and numbers.

export interface SkipCheckRow {
  id: number;
  type: 'email' | 'sms';
  contact_id: number | null;
  to_address: string;
}

export interface SkipRule {
  subscriptionId: number | null;
  skipUnsubscribed: boolean;
}

/** Row id -> why it is skipped, for the rows of one broadcast in this batch. */
export async function sendTimeSkips(db: Database, orgId: number, rule: SkipRule, rows: SkipCheckRow[]): Promise<Map<number, string>> {
  const skips = new Map<number, string>();
  const contactIds = rows.map((r) => r.contact_id).filter((id): id is number => id !== null);
  if (rule.skipUnsubscribed && rule.subscriptionId && contactIds.length) {
    const gone = await db.all<{ contact_id: number }>(sql`
      SELECT contact_id FROM unsubscribes WHERE org_id = ${orgId} AND subscription_id = ${rule.subscriptionId}
        AND contact_id IN (SELECT value FROM json_each(${JSON.stringify(contactIds)}))`);
    const ids = new Set(gone.map((g) => g.contact_id));
    for (const r of rows) if (r.contact_id !== null && ids.has(r.contact_id)) skips.set(r.id, SKIP_REASONS.unsubscribed);
  }
  const phones = rows.filter((r) => r.type === 'sms' && r.to_address).map((r) => r.to_address);
  if (phones.length) {
    const stopped = await db.all<{ phone: string }>(sql`
      SELECT phone FROM sms_opt_outs WHERE org_id = ${orgId} AND phone IN (SELECT value FROM json_each(${JSON.stringify(phones)}))`);
    const numbers = new Set(stopped.map((s) => s.phone));
    for (const r of rows) if (r.type === 'sms' && numbers.has(r.to_address)) skips.set(r.id, SKIP_REASONS.smsOptedOut);
  }
  return skips;
}
