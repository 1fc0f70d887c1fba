import type { Database } from '../../db/client';
import type { Env } from '../../env';
import { publishBroadcastProgress } from '../broadcast/progress';
import { loadBroadcast } from '../broadcast/run-store';

/** Pushes a broadcast's counters to the organisation's consoles after a receipt moved one (best effort: never throws). */
export async function pushProgress(env: Env, ledger: Database, orgId: number, broadcastId: number): Promise<void> {
  try {
    const b = await loadBroadcast(ledger, orgId, broadcastId);
    if (b) await publishBroadcastProgress(env, orgId, b, { thin: false });
  } catch {
    // The figure is read again with the next progress or page load.
  }
}
