import { consumerDeathFaults } from '../src/modules/sending/consumer-death';
import { deliverBatch } from '../src/modules/sending/deliver-batch';
import { recordQueuedReport } from '../src/modules/sending/outcome-report';
import { deliverSystemMail } from '../src/modules/system-mail/deliver';
import type { SendQueueBodies } from '../src/queue-bodies';
import type { HandlersOf } from './handlers';

/** Handlers of the send queue (batches of messages, single messages, system mail, late outcome reports), by kind. */
export const sendHandlers: HandlersOf<SendQueueBodies> = {
  // consumerDeathFaults: nothing unless the crash stage set its fault (a consumer isolate killed mid-batch).
  'send-batch': (body, env, attempt, { channels }) => deliverBatch(env, body, attempt, channels, consumerDeathFaults(env)),
  // One message (a test message, or one the cron rescued): a batch of one.
  'send-message': (body, env, attempt, { channels }) => deliverBatch(env, { orgId: body.orgId, ids: [body.messageId] }, attempt, channels),
  'system-mail': (body, env) => deliverSystemMail(env, body),
  // A batch's outcome report its consumer could not write (outcome-report.ts).
  'record-outcomes': (body, env, _attempt, { channels }) => recordQueuedReport(env, channels.db, body),
};
