import { deliverFlight } from '../src/modules/webhook/deliver';
import type { WebhooksQueueBodies } from '../src/queue-bodies';
import type { HandlersOf } from './handlers';

/** Handlers of the webhooks queue, by kind: each message is one endpoint's flight (src/modules/webhook/deliver.ts). */
export const webhookHandlers: HandlersOf<WebhooksQueueBodies> = {
  'webhook-flight': (body, env) => deliverFlight(env, body),
};
