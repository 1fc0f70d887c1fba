import type { MessageHandler } from './dispatch';

/** Handlers of the import queue (CSV import jobs), by kind. */
export const importHandlers: Record<string, MessageHandler> = {};
