import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { suppressAddress } from './suppress';

// Soft bounces (a full mailbox, a server that is down for a while) suppress an address only when they repeat: at
// the organisation's limit within its window (organizations.soft_bounce_limit / soft_bounce_days, 3 within 30 days
// unless set). The window opens at the address's first soft bounce and a new one opens at the first after it has
// passed. Each message counts once: the caller counts only a message whose report just became soft_bounced.

const DAY_MS = 86_400_000;

/** Counts one soft bounce of `address` (message `messageId`); answers the count in the window, and suppresses at the limit. */
export async function countSoftBounce(db: Database, orgId: number, address: string, messageId: number, now = new Date()): Promise<number> {
  const org = await db.get<{ limit: number; days: number } | undefined>(
    sql`SELECT soft_bounce_limit AS "limit", soft_bounce_days AS days FROM organizations WHERE id = ${orgId}`,
  );
  if (!org || !address) return 0;
  const windowStart = new Date(now.getTime() - org.days * DAY_MS).toISOString();
  const row = await db.get<{ count: number } | undefined>(sql`
    INSERT INTO soft_bounces (org_id, address, count, since, last_message_id) VALUES (${orgId}, ${address}, 1, ${now.toISOString()}, ${messageId})
    ON CONFLICT (org_id, address) DO UPDATE SET
      count = CASE WHEN since < ${windowStart} THEN 1 ELSE count + 1 END,
      since = CASE WHEN since < ${windowStart} THEN excluded.since ELSE since END,
      last_message_id = excluded.last_message_id
    WHERE last_message_id != excluded.last_message_id
    RETURNING count`);
  const count = row?.count ?? 0;
  if (count >= org.limit) {
    await suppressAddress(db, {
      orgId,
      address,
      reason: 'soft_bounces',
      messageId,
      info: `${count} soft bounces within ${org.days} days (last: message ${messageId})`,
    });
  }
  return count;
}
