import type { MessageHandler } from './dispatch';
import { deliverMessage, SEND_KIND, type SendMessageBody } from '../src/modules/message/send-message';
import { deliverSystemMail } from '../src/modules/system-mail/deliver';
import { SYSTEM_MAIL_KIND, type SystemMailBody } from '../src/modules/system-mail/queue-mail';

/** Handlers of the send queue (one message per outgoing email or SMS), by kind. */
export const sendHandlers: Record<string, MessageHandler> = {
  [SEND_KIND]: (body, env, message) => deliverMessage(env, body as unknown as SendMessageBody, message.attempts),
  [SYSTEM_MAIL_KIND]: (body, env) => deliverSystemMail(env, body as unknown as SystemMailBody),
};
