import type { MessageHandler } from './dispatch';
import { runIntegrationSync, SYNC_KIND, type SyncMessage } from '../src/modules/integration/sync';

/** Handlers of the events queue (tracking events, integration syncs), by kind. */
export const eventHandlers: Record<string, MessageHandler> = {
  [SYNC_KIND]: (body, env) => runIntegrationSync(env, body as unknown as SyncMessage),
};
