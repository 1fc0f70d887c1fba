import type { MessageHandler } from './dispatch';
import { deliverMessage, SEND_KIND, type SendMessageBody } from '../src/modules/message/send-message';

/** Handlers of the send queue (one message per outgoing email or SMS), by kind. */
export const sendHandlers: Record<string, MessageHandler> = {
  [SEND_KIND]: (body, env, message) => deliverMessage(env, body as unknown as SendMessageBody, message.attempts),
};
