import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Env } from '../../env';
import type { SendOptions } from '../../shared/contracts/transactional';
import { served } from '../ledger/owner';
import { currentLedger } from '../ledger/registry';
import { enqueueSingles } from '../transactional/enqueue';
import type { LaneRow } from '../transactional/lane';

// One mail from an organisation's own email sender to one address, for the platform's own reasons (a form's
// confirmation mail, the "send me my link" mail): written to the organisation's ledger on the single-message lane,
// like a transactional send, so it is retried, shown in the message list and sent once (the queue's claim), then
// handed to the transactional queue. Untracked and without List-Unsubscribe: a confirmation is nothing to leave.

export interface OrgMail {
  orgId: number;
  /** The sender asked for (a form's); when it is not an email sender of the organisation, its first one is taken. */
  senderId?: number | null;
  to: string;
  /** The contact the mail is about, when there is one (the message list links it). */
  contactId?: number | null;
  subject: string;
  html: string;
  text: string | null;
  /** A template the content came from (its files go with it; a text template's body is sent as plain text). */
  templateId?: number | null;
  /** Shown on the message (e.g. { purpose: 'form-confirmation', form: '12' }). */
  metadata?: Record<string, string>;
}

interface SenderRow {
  id: number;
  value: string;
  name: string | null;
}

/** The organisation's email sender to use: `wanted` when it is one of theirs, else the first by priority and id. */
async function emailSenderOf(db: Database, orgId: number, wanted: number | null | undefined): Promise<SenderRow | null> {
  const row = await db.get<SenderRow | undefined>(sql`
    SELECT id, value, name FROM senders WHERE org_id = ${orgId} AND type = 'email'
    ORDER BY CASE WHEN id = ${wanted ?? 0} THEN 0 ELSE 1 END, priority, id LIMIT 1`);
  return row ?? null;
}

/**
 * Queues `mail` from the organisation's sender; answers the message id, or null when the organisation has no email
 * sender (nothing can be sent: the caller's answer to the visitor stays the same).
 */
export async function sendOrgMail(env: Env, db: Database, mail: OrgMail): Promise<number | null> {
  const sender = await emailSenderOf(db, mail.orgId, mail.senderId);
  if (!sender) return null;
  const ledger = await currentLedger(env, db, mail.orgId);
  if (!ledger) return null;
  const options: SendOptions = { tracking: { opens: false, clicks: false } };
  const row: LaneRow = {
    org_id: mail.orgId,
    type: 'email',
    status: 'queued',
    is_test: 0,
    sender_id: sender.id,
    template_id: mail.templateId ?? null,
    contact_id: mail.contactId ?? null,
    from_address: sender.value,
    from_name: sender.name,
    to_address: mail.to,
    subject: mail.subject,
    body: mail.html,
    body_plain: mail.text,
    delayed_at: null,
    sent_at: null,
    external_id: null,
    api_key_id: null,
    metadata: mail.metadata ? JSON.stringify(mail.metadata) : null,
    send_options: JSON.stringify(options),
  };
  const plan = { batch: false, items: [{ accepted: true as const, row: 0, to: mail.to, sendAt: null, sandbox: false }] };
  const accepted = served(await ledger.stub.acceptSends(ledger.owner, { rows: [row], plan }, null, null, Date.now()));
  if (!accepted.ok) return null;
  const id = accepted.ids[0];
  try {
    await enqueueSingles(env, mail.orgId, [id]);
  } catch (error) {
    // The row is in the ledger: its watch hands it to the queue (transactional/lane.ts).
    console.error(JSON.stringify({ level: 'error', org_mail: 'enqueue', org: mail.orgId, error: String(error) }));
  }
  return id;
}
