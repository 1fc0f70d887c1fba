import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { SKIP_REASONS } from '../../shared/contracts/broadcast';
import { addressKey, blacklistedAmong, blacklistSkip } from '../blacklist/lookup';

// The one rule for a message left out on purpose: it is `skipped`, with the reason, never sent and never
// `failed`. A broadcast's recipients are decided page by page before they are sent (recipients.ts skips them
// there by the same reasons); an address blacklisted, a contact who unsubscribes or a number that replies STOP
// after its page was made but before its batch goes is left out here, just before sending. Test messages are held
// to the same rule (blacklist and STOP; they belong to no subscription). At most three lookups per batch, by the
// batch's own addresses and contacts. Reasons are checked in the runner's order.

export interface SkipCheckRow {
  id: number;
  type: 'email' | 'sms';
  contact_id: number | null;
  to_address: string;
}

/** A broadcast's subscription rule; null for messages of no broadcast. */
export interface SkipRule {
  subscriptionId: number | null;
  skipUnsubscribed: boolean;
}

const addressType = (r: SkipCheckRow) => (r.type === 'sms' ? 'phone' : 'email');

/** Row id -> why it is skipped, for rows of one broadcast (or of none, with rule null) in this batch. */
export async function sendTimeSkips(db: Database, orgId: number, rule: SkipRule | null, rows: SkipCheckRow[]): Promise<Map<number, string>> {
  const skips = new Map<number, string>();
  const skip = (id: number, reason: string) => void (skips.has(id) || skips.set(id, reason));
  const addressed = rows.filter((r) => r.to_address);
  const blocked = await blacklistedAmong(
    db,
    orgId,
    addressed.map((r) => ({ type: addressType(r), value: r.to_address })),
  );
  for (const r of addressed) {
    const key = addressKey(addressType(r), r.to_address);
    if (blocked.has(key)) skip(r.id, blacklistSkip(blocked.get(key) ?? null));
  }

  const contactIds = rows.map((r) => r.contact_id).filter((id): id is number => id !== null);
  if (rule?.skipUnsubscribed && rule.subscriptionId && contactIds.length) {
    const gone = await db.all<{ contact_id: number }>(sql`
      SELECT contact_id FROM unsubscribes WHERE org_id = ${orgId} AND subscription_id = ${rule.subscriptionId}
        AND contact_id IN (SELECT value FROM json_each(${JSON.stringify(contactIds)}))`);
    const ids = new Set(gone.map((g) => g.contact_id));
    for (const r of rows) if (r.contact_id !== null && ids.has(r.contact_id)) skip(r.id, SKIP_REASONS.unsubscribed);
  }
  const phones = addressed.filter((r) => r.type === 'sms').map((r) => r.to_address);
  if (phones.length) {
    const stopped = await db.all<{ phone: string }>(sql`
      SELECT phone FROM sms_opt_outs WHERE org_id = ${orgId} AND phone IN (SELECT value FROM json_each(${JSON.stringify(phones)}))`);
    const numbers = new Set(stopped.map((s) => s.phone));
    for (const r of addressed) if (r.type === 'sms' && numbers.has(r.to_address)) skip(r.id, SKIP_REASONS.smsOptedOut);
  }
  return skips;
}
