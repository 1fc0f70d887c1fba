import type { Env } from '../../env';

// The boot epoch: where the send queue is known to lose its messages when the runtime stops (the local platform:
// wrangler dev keeps its queues in the memory of the process), the platform tells the worker when this runtime
// booted (QUEUE_LOST_BEFORE, set by scripts/lib/platform.mjs). Every queue message handed off before that moment
// died with the last runtime, and no delivery of that runtime is alive: a row queued or claimed before it waits for
// nobody, so the runner takes it back at once (runner.ts, claim.ts releaseLostStatement) instead of waiting for the
// lease rules (lease.ts). In production the var is not set: Cloudflare's queues keep their messages, a delivery
// that died is found by its lease, and nothing here applies. Not covered: wrangler dev's reload after a file change
// (the runtime restarts with the same epoch, so rows lost then wait for the lease rules), and test messages and system
// mail (their own rescue, lease-based). It assumes the last runtime is dead: one platform per state directory.

/**
 * The boot epoch in ms (every queue message handed off before it is lost), or null where the queue keeps its
 * messages. A value in the future is refused (null): it would take rows from deliveries of this very runtime.
 */
export function queueLostBefore(env: Pick<Env, 'QUEUE_LOST_BEFORE'>, now = Date.now()): number | null {
  const raw = env.QUEUE_LOST_BEFORE;
  if (!raw) return null;
  const at = Number(raw);
  return Number.isSafeInteger(at) && at > 0 && at <= now ? at : null;
}
