import type { MessageHandler } from './dispatch';
import { runIntegrationSync, SYNC_KIND, type SyncMessage } from '../src/modules/integration/sync';

/** Handlers of the events queue (integration syncs), by kind; tracking hits are counted a batch at a time (tracking-batch.ts). */
export const eventHandlers: Record<string, MessageHandler> = {
  [SYNC_KIND]: (body, env) => runIntegrationSync(env, body as unknown as SyncMessage),
};
