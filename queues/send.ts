import type { MessageHandler } from './dispatch';

/** Handlers of the send queue (one message per outgoing email or SMS), by kind. */
export const sendHandlers: Record<string, MessageHandler> = {};
