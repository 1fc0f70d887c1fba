import { and, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { systemMails } from '../../db/schema';
import type { Env } from '../../env';
import { leaseMs } from '../sending/lease';
import { SYSTEM_MAIL_KIND, type SystemMailBody } from './queue-mail';

/** At most this many stalled mails go back on the queue per cron run. */
const RESCUE_BATCH = 100;

/**
 * Cron: a system mail whose queue message was lost (the enqueue after storing it failed, or a delivery died
 * mid-send) sits queued or sending. Those untouched for longer than a claim's lease go back on the queue; the
 * consumer's claim keeps a second message from sending twice.
 */
export async function rescueStalledSystemMails(db: Database, env: Pick<Env, 'SEND_QUEUE' | 'SEND_LEASE_SECONDS'>): Promise<void> {
  const before = new Date(Date.now() - leaseMs(env)).toISOString();
  const stalled = await db
    .select({ id: systemMails.id })
    .from(systemMails)
    .where(and(inArray(systemMails.status, ['queued', 'sending']), lt(systemMails.updatedAt, before)))
    .limit(RESCUE_BATCH);
  if (stalled.length) {
    await env.SEND_QUEUE.sendBatch(stalled.map(({ id }) => ({ body: { kind: SYSTEM_MAIL_KIND, mailId: id } satisfies SystemMailBody })));
  }
}
