import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { rawBatch } from '../../crud/raw-batch';

// Housekeeping (the 15-minute cron, src/scheduled.ts): sign-ups not confirmed within PENDING_DAYS go. Their pending
// rows and unconfirmed consents are deleted, and so is each 'explicit' contact they were about that nothing else
// holds (no member row of any status, no confirmed consent, no sign-up still waiting): someone typed an address
// that never confirmed, and the platform keeps no trace of it. A batch per run, oldest first; the next run goes on.

export const EXPIRY_BATCH = 500;

/** Removes one batch of expired sign-ups; answers how many consents went. */
export async function expirePendingSignups(db: Database, now = new Date(), limit = EXPIRY_BATCH): Promise<number> {
  const at = now.toISOString();
  const expired = await db.all<{ id: number; contact_id: number }>(sql`
    SELECT id, contact_id FROM consents WHERE confirmed_at IS NULL AND expires_at IS NOT NULL AND expires_at <= ${at}
    ORDER BY expires_at LIMIT ${limit}`);
  const pendingRows = await db.all<{ contact_id: number }>(sql`
    SELECT contact_id FROM subscription_members WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ${at} LIMIT ${limit}`);
  if (expired.length === 0 && pendingRows.length === 0) return 0;
  const consentIds = JSON.stringify(expired.map((r) => r.id));
  const contactIds = JSON.stringify([...new Set([...expired, ...pendingRows].map((r) => r.contact_id))]);
  await rawBatch(db, [
    db.run(sql`DELETE FROM subscription_members WHERE status = 'pending' AND expires_at IS NOT NULL AND expires_at <= ${at}
      AND contact_id IN (SELECT value FROM json_each(${contactIds}))`),
    db.run(sql`DELETE FROM consents WHERE id IN (SELECT value FROM json_each(${consentIds})) AND confirmed_at IS NULL`),
    db.run(sql`DELETE FROM contacts WHERE id IN (SELECT value FROM json_each(${contactIds})) AND membership = 'explicit'
      AND NOT EXISTS (SELECT 1 FROM subscription_members m WHERE m.contact_id = contacts.id)
      AND NOT EXISTS (SELECT 1 FROM consents k WHERE k.contact_id = contacts.id
        AND (k.confirmed_at IS NOT NULL OR k.expires_at IS NULL OR k.expires_at > ${at}))`),
  ]);
  return expired.length;
}
