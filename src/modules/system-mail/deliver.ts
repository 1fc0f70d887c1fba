import { and, eq, sql } from 'drizzle-orm';
import { QUEUE_MAX_DELIVERIES } from '../../queue-names';
import { createDb } from '../../db/client';
import { systemMails } from '../../db/schema';
import type { Env } from '../../env';
import { SmtpTransport, type SmtpTransportOptions } from '../../lib/smtp/transport';
import type { SendResult, Transport } from '../../lib/transport/types';
import { rawBatch } from '../crud/raw-batch';
import { claimRows, finishStatement, outcomesJson, type RowOutcome } from '../sending/claim';
import { leaseMs, startHeartbeat } from '../sending/lease';
import { SYSTEM_MAIL_KIND, type SystemMailBody } from './queue-mail';
import { SystemSmtpConfigError, systemFrom, systemSmtpOptions } from './smtp-config';

// The send queue's consumer for 'system-mail'. Delivery is at least once, so a delivery first claims the row
// with the claim every message uses (src/modules/sending/claim.ts); a redelivered message finds it sending or
// sent and does nothing. A mail left sending by a delivery that died is taken over by the cron's rescue.

export const NOT_CONFIGURED = 'system SMTP not configured';

/** Opens the transport to the system SMTP server; tests may pass their own. */
export type OpenSystemTransport = (options: SmtpTransportOptions) => Transport;
const openSmtp: OpenSystemTransport = (options) => new SmtpTransport(options);

/**
 * The 'system-mail' consumer: sends the mail once through SYSTEM_SMTP_URL. A transient failure releases the
 * row and throws (the queue retries); a permanent one, or the last attempt, marks it failed with the error.
 */
export async function deliverSystemMail(env: Env, body: Pick<SystemMailBody, 'mailId'>, open: OpenSystemTransport = openSmtp): Promise<void> {
  if (!Number.isSafeInteger(body?.mailId)) throw new Error(`malformed ${SYSTEM_MAIL_KIND} body`);
  const db = createDb(env.DB);
  const [row] = await db.select().from(systemMails).where(eq(systemMails.id, body.mailId)).limit(1);
  if (!row || row.status === 'sent' || row.status === 'failed') return;

  let options: SmtpTransportOptions | null;
  try {
    options = systemSmtpOptions(env);
  } catch (error) {
    if (!(error instanceof SystemSmtpConfigError)) throw error;
    await finish(env, row.id, row.status, row.updatedAt, { status: 'failed', error: error.message });
    console.error(JSON.stringify({ level: 'error', system_mail: row.id, error: error.message }));
    return;
  }
  if (!options) {
    // Nothing to send through: record it (the text stays, so it can be read or sent later) and ack.
    await finish(env, row.id, row.status, row.updatedAt, { status: 'failed', error: NOT_CONFIGURED });
    console.warn(JSON.stringify({ level: 'warn', system_mail: row.id, to: row.toAddress, error: NOT_CONFIGURED }));
    return;
  }

  // The same claim as every message: only the delivery that takes the row sends it.
  const lease = leaseMs(env);
  const claim = await claimRows<SystemMailRow>(db, { table: 'system_mails', ids: [row.id], leaseMs: lease });
  const mail = claim.rows[0];
  if (!mail) return;

  // A slow server must not let the lease run out while the mail is being sent (a second delivery would send it too).
  const heartbeat = startHeartbeat(db, 'system_mails', claim.token, [mail.id], lease);
  const result = await send(open, options, env, mail).finally(() => heartbeat.stop());
  const outcome: RowOutcome = result.ok
    ? { id: mail.id, status: 'sent', externalId: null }
    : result.retryable && mail.attempts < QUEUE_MAX_DELIVERIES
      ? { id: mail.id, status: 'queued', error: result.error }
      : { id: mail.id, status: 'failed', error: result.error, retryable: result.retryable };
  // Sent mail loses its text and html: they carry one-time codes.
  const clearText = sql`text = CASE WHEN o.s = 'sent' THEN NULL ELSE text END, html = CASE WHEN o.s = 'sent' THEN NULL ELSE html END`;
  const record = () => rawBatch(db, [finishStatement(db, 'system_mails', claim.token, outcomesJson([outcome]), Date.now(), clearText)]);
  // The server has it: a failed write here must not lead to a second send, so try it a few times.
  for (let tries = 1; ; tries++) {
    try {
      await record();
      break;
    } catch (error) {
      if (tries >= 3) throw error;
    }
  }
  if (outcome.status === 'queued') {
    throw new Error(`system mail ${mail.id} not sent yet (attempt ${mail.attempts} of ${QUEUE_MAX_DELIVERIES}): ${outcome.error}`);
  }
}

/** A system mail row as the claim returns it (snake_case). */
interface SystemMailRow {
  id: number;
  to_address: string;
  subject: string;
  text: string | null;
  html: string | null;
  attempts: number;
}

/** One attempt; never throws. */
async function send(open: OpenSystemTransport, options: SmtpTransportOptions, env: Env, mail: SystemMailRow): Promise<SendResult> {
  let transport: Transport | null = null;
  try {
    transport = open(options);
    const html = mail.html?.trim() ? mail.html : null;
    return await transport.send({
      id: mail.id,
      from: systemFrom(env),
      to: mail.to_address,
      subject: mail.subject,
      body: html ?? mail.text ?? '',
      html: html !== null,
      bodyPlain: html !== null ? mail.text : null,
    });
  } catch (error) {
    return { ok: false, retryable: true, error: (error instanceof Error ? error.message : String(error)).slice(0, 2000) };
  } finally {
    await transport?.close().catch(() => {});
  }
}

/** Marks a mail that was never claimed, if no other delivery changed it meanwhile. */
async function finish(env: Env, id: number, status: string, updatedAt: string, values: { status: string; error: string }): Promise<void> {
  await createDb(env.DB)
    .update(systemMails)
    .set({ ...values, updatedAt: new Date().toISOString() })
    .where(and(eq(systemMails.id, id), eq(systemMails.status, status), eq(systemMails.updatedAt, updatedAt)));
}
