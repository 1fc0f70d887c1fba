import type { Database } from '../../db/client';
import { systemMails } from '../../db/schema';
import type { Env } from '../../env';

// Mail the platform sends itself (password reset, sign-up completion, pre-registration). A route stores the
// mail and enqueues it; only the send queue's consumer (./deliver.ts) talks to the system SMTP server.

/** The send queue's message kind for a system mail. */
export const SYSTEM_MAIL_KIND = 'system-mail';

export type SystemMailBody = { kind: typeof SYSTEM_MAIL_KIND; mailId: number };

export interface SystemMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  orgId?: number | null;
}

/** Stores a system mail as queued and puts it on the send queue; returns the system_mails row id. */
export async function queueSystemMail(env: Pick<Env, 'SEND_QUEUE'>, db: Database, mail: SystemMail): Promise<number> {
  const [row] = await db
    .insert(systemMails)
    .values({ orgId: mail.orgId ?? null, toAddress: mail.to.trim(), subject: mail.subject, text: mail.text, html: mail.html ?? null })
    .returning({ id: systemMails.id });
  await enqueueSystemMail(env, row.id);
  return row.id;
}

/** Puts a stored system mail on the send queue (again: the consumer's claim makes a second message harmless). */
export async function enqueueSystemMail(env: Pick<Env, 'SEND_QUEUE'>, mailId: number, delaySeconds?: number): Promise<void> {
  const body: SystemMailBody = { kind: SYSTEM_MAIL_KIND, mailId };
  await env.SEND_QUEUE.send(body, delaySeconds ? { delaySeconds } : undefined);
}
