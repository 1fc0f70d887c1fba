import { runIntegrationSync } from '../src/modules/integration/sync';
import type { EventsQueueBodies } from '../src/queue-bodies';
import { countTrackingHits } from './tracking-batch';
import type { HandlersOf } from './handlers';

/**
 * Handlers of the events queue, by kind. Tracking hits are counted a whole batch at a time before the rest are
 * handled (dispatch.ts, tracking-batch.ts); one reaching this table on its own is counted alone.
 */
export const eventHandlers: HandlersOf<EventsQueueBodies> = {
  'integration-sync': (body, env) => runIntegrationSync(env, body),
  'tracking-hits': (body, env) => countTrackingHits([body], env),
};
