import type { MessageHandler } from './dispatch';

/** Handlers of the events queue (tracking events, integration syncs), by kind. */
export const eventHandlers: Record<string, MessageHandler> = {};
