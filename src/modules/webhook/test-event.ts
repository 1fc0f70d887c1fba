import { TEST_EVENT_TYPE } from '../../shared/contracts/events';
import type { webhookEndpoints } from '../../db/schema';
import { postEvents, type RequestEnv } from './request';

// The console's "Send test event": one webhook.test event to one endpoint, at once, through the same address rules
// and signing as every delivery; not in the stream, no delivery row, no retry.

type EndpointRow = typeof webhookEndpoints.$inferSelect;

const newEventId = () => `evt_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Delivers a webhook.test event to the endpoint now; answers the receiver's status (null: no answer), the time taken and the error. */
export async function sendTestEvent(env: RequestEnv, endpoint: EndpointRow): Promise<{ status: number | null; ms: number; error: string | null }> {
  const event = {
    id: newEventId(),
    type: TEST_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: JSON.stringify({ endpoint_id: endpoint.id, message: 'A test event from Relay: this endpoint receives webhooks.' }),
  };
  const outcome = await postEvents(env, endpoint, [event], endpoint.batch);
  return { status: outcome.status, ms: outcome.ms, error: outcome.error };
}
