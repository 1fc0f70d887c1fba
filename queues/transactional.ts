import type { Env } from '../src/env';
import { blockOf } from '../src/modules/ledger/ids';
import { deliverBatch } from '../src/modules/sending/deliver-batch';
import { BATCH_SIZE, SEND_BATCH_KIND, type SendBatchBody } from '../src/modules/sending/send-queue';
import type { InvocationContext } from './handlers';
import { inForeground } from '../src/lib/requests-first';

// The transactional queue's consumer: single messages (transactional sends, test messages), most one id per queue
// message. An organisation's ids of one invocation go together, BATCH_SIZE at a time, as one batch of the same
// engine a broadcast's go through (deliver-batch.ts): one claim, one render pass, one pipelined SMTP session, one
// write, instead of one of each per message. A group that must be retried retries each of its queue messages (the
// claim lets no row be sent twice); the others are acked.

const isBatch = (body: unknown): body is SendBatchBody =>
  typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === SEND_BATCH_KIND && Number.isSafeInteger((body as SendBatchBody).orgId);

/** Organisations' groups handled at once: their sessions overlap. */
const GROUPS_AT_ONCE = 4;

export async function consumeTransactional(messages: readonly Message<unknown>[], env: Env, context: InvocationContext): Promise<void> {
  const groups: { orgId: number; ids: number[]; messages: Message<unknown>[] }[] = [];
  const open = new Map<string, (typeof groups)[number]>();
  for (const message of messages) {
    if (!isBatch(message.body)) {
      console.error(JSON.stringify({ level: 'error', queue: 'transactional', id: message.id, error: 'malformed body' }));
      message.retry();
      continue;
    }
    const body = message.body;
    // One ledger's ids together (an id's block names its ledger: src/modules/ledger/ids.ts).
    const key = `${body.orgId}:${blockOf(body.ids[0] ?? 0)}`;
    let group = open.get(key);
    if (!group || group.ids.length + body.ids.length > BATCH_SIZE) {
      group = { orgId: body.orgId, ids: [], messages: [] };
      groups.push(group);
      open.set(key, group);
    }
    group.ids.push(...body.ids);
    group.messages.push(message);
  }
  let next = 0;
  const lane = async () => {
    while (next < groups.length) {
      const group = groups[next++];
      const attempt = Math.max(...group.messages.map((m) => m.attempts));
      try {
        // In the foreground: a single message is someone's answer (a code, a reset link), not background work that
        // steps aside for requests (src/lib/requests-first.ts).
        await inForeground(() => deliverBatch(env, { orgId: group.orgId, ids: [...new Set(group.ids)] }, attempt, context.channels));
        for (const m of group.messages) m.ack();
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', queue: 'transactional', org: group.orgId, error: String(error) }));
        for (const m of group.messages) m.retry({ delaySeconds: Math.min(300, 2 ** m.attempts) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(GROUPS_AT_ONCE, groups.length) }, lane));
}
