import type { FlightEvent } from './ledger-side';

/**
 * One flight on the webhooks queue: the events one endpoint gets in one go (one request for a batch endpoint, else
 * one each in order), with the ledger to report to (its owner: org, key, generation) and the flight's id there.
 */
export interface WebhookFlightBody {
  kind: 'webhook-flight';
  orgId: number;
  key: string;
  generation: number;
  flightId: string;
  endpointId: number;
  batch: boolean;
  /** data: the event's data as stored (JSON text). */
  events: FlightEvent[];
}
