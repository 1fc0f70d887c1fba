import type { Env } from '../src/env';
import { SendChannels } from '../src/modules/sending/channels';
import type { InvocationContext, MessageHandler } from './dispatch';
import { deliverBatch, SEND_BATCH_KIND, type SendBatchBody } from '../src/modules/sending/deliver-batch';
import { SEND_KIND, type SendMessageBody } from '../src/modules/message/send-message';
import { deliverSystemMail } from '../src/modules/system-mail/deliver';
import { SYSTEM_MAIL_KIND, type SystemMailBody } from '../src/modules/system-mail/queue-mail';

/** The invocation's channels, or (a handler called on its own) channels of its own, closed when it ends. */
async function withChannels(env: Env, context: InvocationContext | undefined, work: (channels: SendChannels) => Promise<void>): Promise<void> {
  if (context) return work(context.channels);
  const channels = new SendChannels(env);
  try {
    await work(channels);
  } finally {
    await channels.close();
  }
}

/** Handlers of the send queue (batches of messages, single messages, system mail), by kind. */
export const sendHandlers: Record<string, MessageHandler> = {
  [SEND_BATCH_KIND]: (body, env, message, context) =>
    withChannels(env, context, (channels) => deliverBatch(env, body as unknown as SendBatchBody, message.attempts, channels)),
  // One message (a test message, or one the cron rescued): a batch of one.
  [SEND_KIND]: (body, env, message, context) => {
    const { orgId, messageId } = body as unknown as SendMessageBody;
    return withChannels(env, context, (channels) => deliverBatch(env, { orgId, ids: [messageId] }, message.attempts, channels));
  },
  [SYSTEM_MAIL_KIND]: (body, env) => deliverSystemMail(env, body as unknown as SystemMailBody),
};
