import { and, asc, eq, lt, sql } from 'drizzle-orm';
import { QUEUE_MAX_DELIVERIES } from '../../../queues/messages';
import { createDb, type Database } from '../../db/client';
import { integrations, messages, senders, templateAttachments, templates } from '../../db/schema';
import { TenantScope } from '../../db/tenant-scope';
import type { Env } from '../../env';
import type { OutgoingAttachment, OutgoingMessage, SendResult } from '../../lib/transport/types';
import { isBlacklisted } from '../blacklist/lookup';
import { providerAccount, type StoredDetails } from '../integration/account';
import { ProviderUnavailableError, providers as defaultProviders, type Providers } from '../integration/providers';

// The send queue's consumer for one message ('send-message'): at-least-once delivery, so it is idempotent.
// A delivery first claims the row (queued -> sending, a conditional UPDATE that only one delivery can win),
// sends through the integration's transport, then records sent + external id, or failed + error for a
// permanent error. A retryable error puts the row back to queued and throws, so the dispatcher retries with
// backoff; on the last attempt the message is marked failed instead. `sending` reads as queued in the API.

export const SEND_KIND = 'send-message';

export type SendMessageBody = {
  kind: typeof SEND_KIND;
  orgId: number;
  messageId: number;
};

/** How long a claim holds; after it a delivery may take over a message (or system mail) whose sender died mid-send. */
export const SEND_LEASE_MS = 10 * 60_000;
/** An email's attachments are read into memory to be sent: above this the send fails rather than the worker. */
export const MAX_EMAIL_ATTACHMENT_BYTES = 40_000_000;

/** Puts a message on the send queue (optionally delayed). */
export async function enqueueSend(env: Pick<Env, 'SEND_QUEUE'>, orgId: number, messageId: number, delaySeconds?: number): Promise<void> {
  const body: SendMessageBody = { kind: SEND_KIND, orgId, messageId };
  await env.SEND_QUEUE.send(body, delaySeconds ? { delaySeconds } : undefined);
}

/** The error of a message whose address is on the blacklist. */
export const BLACKLISTED = 'Not sent: the address is on the blacklist';

type Outcome = SendResult;
const permanent = (error: string): Outcome => ({ ok: false, retryable: false, error });
type MessageRow = typeof messages.$inferSelect;

/** Builds what the transport sends: addresses, rendered content, the template's files for email. */
async function outgoingFor(env: Env, db: Database, row: MessageRow, returnPath: string | null): Promise<OutgoingMessage | Outcome> {
  const email = row.type === 'email';
  const message: OutgoingMessage = {
    id: row.id,
    from: { address: row.fromAddress, name: email ? row.fromName : null },
    to: row.toAddress,
    body: row.body,
  };
  if (!email) return message;
  let templateType: string | null = null;
  let attachments: OutgoingAttachment[] = [];
  if (row.templateId) {
    const template = await new TenantScope(db, templates, row.orgId).findById(row.templateId);
    templateType = template?.type ?? null;
    const files = await new TenantScope(db, templateAttachments, row.orgId)
      .selectWhere(eq(templateAttachments.templateId, row.templateId))
      .orderBy(asc(templateAttachments.id));
    const total = files.reduce((sum, f) => sum + f.size, 0);
    if (total > MAX_EMAIL_ATTACHMENT_BYTES) {
      return permanent(`The attachments total ${Math.round(total / 1e6)} MB, more than the ${MAX_EMAIL_ATTACHMENT_BYTES / 1e6} MB one email can carry`);
    }
    for (const file of files) {
      const object = await env.FILES.get(file.fileKey);
      if (!object) return permanent(`The attachment ${file.fileName} is missing from storage`);
      attachments.push({ filename: file.fileName, contentType: file.contentType, content: new Uint8Array(await object.arrayBuffer()) });
    }
  }
  return {
    ...message,
    subject: row.subject ?? '',
    bodyPlain: row.bodyPlain,
    // Text templates sent by email are plain text; html and email templates are html.
    html: templateType !== 'text',
    attachments,
    returnPath,
  };
}

/** One send attempt of a claimed message; never throws, the outcome says what happened. */
async function attemptSend(env: Env, db: Database, row: MessageRow, deps: Pick<Providers, 'openTransport'>): Promise<Outcome> {
  const sender = row.senderId ? await new TenantScope(db, senders, row.orgId).findById(row.senderId) : undefined;
  if (!sender) return permanent('The sender of this message no longer exists');
  // Checked again at send time: the address may have been blacklisted after the message was queued.
  if (await isBlacklisted(db, row.orgId, row.type === 'sms' ? 'phone' : 'email', row.toAddress)) return permanent(BLACKLISTED);
  const integration = await new TenantScope(db, integrations, row.orgId).findById(sender.integrationId);
  if (!integration) return permanent('The integration of this sender no longer exists');
  let account;
  try {
    account = await providerAccount(env, integration);
  } catch (error) {
    return permanent(`The integration's credentials cannot be read: ${errorText(error)}`);
  }
  const outgoing = await outgoingFor(env, db, row, integration.type === 'smtp' ? ((integration.details as StoredDetails).return_path ?? null) : null);
  if ('ok' in outgoing) return outgoing;
  let transport;
  try {
    transport = await deps.openTransport(account, env);
  } catch (error) {
    return { ok: false, retryable: !(error instanceof ProviderUnavailableError) && !isPermanent(error), error: errorText(error) };
  }
  try {
    return await transport.send(outgoing);
  } catch (error) {
    return { ok: false, retryable: !isPermanent(error), error: errorText(error) };
  } finally {
    await transport.close().catch(() => {});
  }
}

/** Errors may say they are permanent with `retryable: false` (or `permanent: true`). */
function isPermanent(error: unknown): boolean {
  const e = error as { retryable?: unknown; permanent?: unknown } | null;
  return !!e && typeof e === 'object' && (e.retryable === false || e.permanent === true);
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 2000);
}

/**
 * The 'send-message' consumer. `attempt` is the queue's delivery count (1 on the first); `deps` lets tests
 * pass a recording transport instead of the real providers.
 */
export async function deliverMessage(
  env: Env,
  body: Pick<SendMessageBody, 'orgId' | 'messageId'>,
  attempt: number,
  deps: Pick<Providers, 'openTransport'> = defaultProviders,
): Promise<void> {
  if (!Number.isSafeInteger(body?.orgId) || !Number.isSafeInteger(body?.messageId)) throw new Error('malformed send-message body');
  const db = createDb(env.DB);
  const scope = new TenantScope(db, messages, body.orgId);
  const row = await scope.findById(body.messageId);
  // Deleted, or already finished by an earlier delivery: nothing to do.
  if (!row || row.status === 'sent' || row.status === 'failed') return;
  if (row.status === 'sending') {
    const age = Date.now() - Date.parse(row.updatedAt);
    if (age < SEND_LEASE_MS) {
      // Another delivery is sending it. Look again once its claim has run out, in case that delivery died.
      await enqueueSend(env, body.orgId, body.messageId, Math.ceil((SEND_LEASE_MS - age) / 1000) + 5);
      return;
    }
  }

  // The claim: only the delivery whose UPDATE still sees the row as it read it gets to send.
  const claimedAt = new Date().toISOString();
  const claimed = await scope.update(
    and(eq(messages.id, row.id), eq(messages.status, row.status), eq(messages.updatedAt, row.updatedAt))!,
    { status: 'sending', attempts: sql`${messages.attempts} + 1` as unknown as number, updatedAt: claimedAt },
  );
  if (claimed.length === 0) return;

  let outcome: Outcome;
  try {
    outcome = await attemptSend(env, db, claimed[0], deps);
  } catch (error) {
    // A storage or database error after the claim: release the row like any retryable failure.
    outcome = { ok: false, retryable: true, error: errorText(error) };
  }
  const mine = and(eq(messages.id, row.id), eq(messages.status, 'sending'))!;
  const now = new Date().toISOString();
  if (outcome.ok) {
    // The provider has it: a failed write here must not lead to a second send, so try it a few times.
    const sent = { status: 'sent', externalId: outcome.externalId, sentAt: now, error: null, updatedAt: now };
    for (let tries = 1; ; tries++) {
      try {
        await scope.update(mine, sent);
        return;
      } catch (error) {
        if (tries >= 3) throw error;
      }
    }
  }
  // Claims are counted in the row, so re-queued deliveries (lease take-overs) count towards the limit too.
  const tries = Math.max(attempt, Number(claimed[0].attempts) || 0);
  if (!outcome.retryable || tries >= QUEUE_MAX_DELIVERIES) {
    await scope.update(mine, { status: 'failed', error: outcome.error, updatedAt: now });
    return;
  }
  await scope.update(mine, { status: 'queued', error: outcome.error, updatedAt: now });
  throw new Error(`message ${row.id} not sent yet (attempt ${tries} of ${QUEUE_MAX_DELIVERIES}): ${outcome.error}`);
}

/**
 * Cron: queues again the messages left 'sending' past their lease (the delivery that claimed them died and
 * its queue message is gone), so each is finished by the claim logic above: sent, retried or failed.
 */
export async function rescueStalledMessages(db: Database, env: Pick<Env, 'SEND_QUEUE'>, now = Date.now()): Promise<number> {
  const stalled = await db
    .select({ id: messages.id, orgId: messages.orgId })
    .from(messages)
    .where(and(eq(messages.status, 'sending'), lt(messages.updatedAt, new Date(now - SEND_LEASE_MS).toISOString())))
    .limit(100);
  if (stalled.length) {
    await env.SEND_QUEUE.sendBatch(stalled.map((m) => ({ body: { kind: SEND_KIND, orgId: m.orgId, messageId: m.id } satisfies SendMessageBody })));
  }
  return stalled.length;
}
