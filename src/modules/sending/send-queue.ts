import type { Env } from '../../env';

// The producer side of the send queues: message ids go in batches of BATCH_SIZE, one queue message each, which the
// consumer (deliver-batch.ts) claims, renders and sends together. A broadcast's go on the send queue; single messages
// (of no broadcast: transactional sends, test messages) on the transactional queue, so they never wait behind one.

export const SEND_BATCH_KIND = 'send-batch';
/** Recipients per queue message: one claim, one render pass, one pipelined run, one write. */
export const BATCH_SIZE = 100;

export type SendBatchBody = {
  kind: typeof SEND_BATCH_KIND;
  orgId: number;
  ids: number[];
  broadcastId?: number | null;
};

/** Puts message ids on their queue, BATCH_SIZE per queue message (optionally delayed). */
export async function enqueueBatches(
  env: Pick<Env, 'SEND_QUEUE' | 'TRANSACTIONAL_QUEUE'>,
  orgId: number,
  broadcastId: number | null,
  ids: readonly number[],
  delaySeconds?: number,
): Promise<void> {
  const bodies: { body: SendBatchBody; delaySeconds?: number }[] = [];
  for (let i = 0; i < ids.length; i += BATCH_SIZE) {
    bodies.push({ body: { kind: SEND_BATCH_KIND, orgId, broadcastId, ids: ids.slice(i, i + BATCH_SIZE) }, ...(delaySeconds ? { delaySeconds } : {}) });
  }
  // sendBatch takes at most 100 messages (and 256 KB: 100 bodies of 100 ids stay well under it).
  const queue = broadcastId === null ? env.TRANSACTIONAL_QUEUE : env.SEND_QUEUE;
  for (let i = 0; i < bodies.length; i += 100) await queue.sendBatch(bodies.slice(i, i + 100));
}
