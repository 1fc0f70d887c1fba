import { and, eq, inArray, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { messages } from '../../db/schema';
import { registeredLedgerDb } from '../ledger/registry';
import { ledgersWithPendingSingles, markSinglesChecked } from '../ledger/singles';
import type { Env } from '../../env';
import { providers as defaultProviders, type Providers } from '../integration/providers';
import { SendChannels } from '../sending/channels';
import { leaseMs } from '../sending/lease';
import { deliverBatch } from '../sending/deliver-batch';

// One message on the send queue ('send-message'): test messages, and messages the cron rescued. The consumer
// treats it as a batch of one (src/modules/sending/deliver-batch.ts), so one mechanism claims, sends and
// records every message the platform sends.

export { MAX_EMAIL_ATTACHMENT_BYTES } from '../sending/compose';

export const SEND_KIND = 'send-message';

export type SendMessageBody = {
  kind: typeof SEND_KIND;
  orgId: number;
  messageId: number;
};

/** Puts a message on the send queue (optionally delayed). */
export async function enqueueSend(env: Pick<Env, 'SEND_QUEUE'>, orgId: number, messageId: number, delaySeconds?: number): Promise<void> {
  const body: SendMessageBody = { kind: SEND_KIND, orgId, messageId };
  await env.SEND_QUEUE.send(body, delaySeconds ? { delaySeconds } : undefined);
}

/**
 * Delivers one message as the queue would (`attempt` is the queue's delivery count); `deps` lets tests pass a
 * recording transport instead of the real providers.
 */
export async function deliverMessage(
  env: Env,
  body: Pick<SendMessageBody, 'orgId' | 'messageId'>,
  attempt: number,
  deps: Pick<Providers, 'openTransport'> = defaultProviders,
): Promise<void> {
  if (!Number.isSafeInteger(body?.orgId) || !Number.isSafeInteger(body?.messageId)) throw new Error('malformed send-message body');
  const channels = new SendChannels(env, deps);
  try {
    await deliverBatch(env, { orgId: body.orgId, ids: [body.messageId] }, attempt, channels);
  } finally {
    await channels.close();
  }
}

/**
 * Cron: queues again the single messages (test messages) left 'sending' past their lease (the delivery that claimed
 * them died and its queue message is gone), so the claim can hand them to a new delivery; a broadcast's runner
 * watches its own. Only the ledgers with singles not yet seen finish are asked (ledger/singles.ts), one call each,
 * and one more when none is left unfinished, to stop asking.
 */
export async function rescueStalledMessages(db: Database, env: Env, now = Date.now()): Promise<number> {
  const before = new Date(now - leaseMs(env)).toISOString();
  let rescued = 0;
  for (const pending of await ledgersWithPendingSingles(db)) {
    const ledger = registeredLedgerDb(env, pending.name, pending.orgId);
    if (!ledger) continue;
    const stalled = await stalledSingles(ledger, before);
    if (stalled.length > 0) {
      await env.SEND_QUEUE.sendBatch(stalled.map((m) => ({ body: { kind: SEND_KIND, orgId: pending.orgId, messageId: m.id } satisfies SendMessageBody })));
      rescued += stalled.length;
    } else if ((await unfinishedSingle(ledger)).length === 0) {
      await markSinglesChecked(db, pending);
    }
  }
  return rescued;
}

/**
 * A ledger's single messages left sending since before `before` (exported for the query-plan test): found through
 * their broadcast id, which is null (the unique broadcast + contact index), so only single messages are read.
 */
export function stalledSingles(ledger: Database, before: string) {
  return ledger
    .select({ id: messages.id })
    .from(messages)
    .where(and(isNull(messages.broadcastId), eq(messages.status, 'sending'), lt(messages.updatedAt, before)))
    .limit(100);
}

/** One single message of the ledger still queued or sending, if any (exported for the query-plan test). */
export function unfinishedSingle(ledger: Database) {
  return ledger
    .select({ id: messages.id })
    .from(messages)
    .where(and(isNull(messages.broadcastId), inArray(messages.status, ['queued', 'sending'])))
    .limit(1);
}
