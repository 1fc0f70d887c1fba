import type { Env } from '../../env';
import { enqueueBatches } from '../sending/send-queue';

/**
 * Puts single messages (transactional sends, test messages) on the transactional queue: their own line, never behind
 * a broadcast's batches. The consumer claims and sends them like any batch (queues/transactional.ts).
 */
export function enqueueSingles(
  env: Pick<Env, 'SEND_QUEUE' | 'TRANSACTIONAL_QUEUE'>,
  orgId: number,
  ids: readonly number[],
  delaySeconds?: number,
): Promise<void> {
  return enqueueBatches(env, orgId, null, ids, delaySeconds);
}
