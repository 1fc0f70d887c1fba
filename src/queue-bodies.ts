import type { ImportJobMessage } from './modules/import/run-import';
import type { SyncMessage } from './modules/integration/sync';
import type { SendMessageBody } from './modules/message/send-message';
import type { OutcomeReportBody } from './modules/sending/outcome-report';
import type { SendBatchBody } from './modules/sending/send-queue';
import type { SystemMailBody } from './modules/system-mail/queue-mail';
import type { TrackingHitsBody } from './modules/tracking/hit';
import type { WebhookFlightBody } from './modules/webhook/flight-body';

// The body of every message on each queue, by kind: one contract per queue. The bindings in env.ts are typed with
// these unions, so a producer can only send a body its queue's consumer knows, and the consumers' handler tables
// (queues/) are typed from the same maps, so a kind renamed on one side fails the compile instead of reaching the
// dead-letter queue. Each body type lives beside the module that makes and handles it.

export interface SendQueueBodies {
  'send-batch': SendBatchBody;
  'send-message': SendMessageBody;
  'system-mail': SystemMailBody;
  'record-outcomes': OutcomeReportBody;
}

/** Single messages' batches (transactional sends, test messages), by the same consumer as a broadcast's. */
export interface TransactionalQueueBodies {
  'send-batch': SendBatchBody;
}

export interface ImportQueueBodies {
  'contact-import': ImportJobMessage;
}

export interface EventsQueueBodies {
  'integration-sync': SyncMessage;
  'tracking-hits': TrackingHitsBody;
}

/** Webhook flights: one endpoint's events in one go (src/modules/webhook/dispatch.ts makes them, deliver.ts takes them). */
export interface WebhooksQueueBodies {
  'webhook-flight': WebhookFlightBody;
}

export type SendQueueBody = SendQueueBodies[keyof SendQueueBodies];
export type TransactionalQueueBody = TransactionalQueueBodies[keyof TransactionalQueueBodies];
export type ImportQueueBody = ImportQueueBodies[keyof ImportQueueBodies];
export type EventsQueueBody = EventsQueueBodies[keyof EventsQueueBodies];
export type WebhooksQueueBody = WebhooksQueueBodies[keyof WebhooksQueueBodies];
/** What any of the queues (or their dead-letter queues) may hand the worker. */
export type AnyQueueBody = SendQueueBody | TransactionalQueueBody | ImportQueueBody | EventsQueueBody | WebhooksQueueBody;

/** true when every key of a body map is the `kind` of the body it names, never otherwise. */
type KindsMatch<M> = false extends { [K in keyof M]: M[K] extends { kind: K } ? true : false }[keyof M] ? never : true;
type Holds<T extends true> = T;
/** Fails the compile when a map's key and its body's kind disagree. */
export type QueueBodyMapsChecked = [
  Holds<KindsMatch<SendQueueBodies>>,
  Holds<KindsMatch<TransactionalQueueBodies>>,
  Holds<KindsMatch<ImportQueueBodies>>,
  Holds<KindsMatch<EventsQueueBodies>>,
  Holds<KindsMatch<WebhooksQueueBodies>>,
];
