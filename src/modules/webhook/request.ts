import type { Env } from '../../env';
import { EVENT_VERSION } from '../../shared/contracts/events';
import { WEBHOOK_TIMEOUT_MS } from '../../shared/contracts/webhook';
import { checkEndpointUrl, type AddressEnv } from './address-rules';
import { clockNow } from './clock';
import { openEndpointHeaders, openEndpointSecret } from './secrets';
import { signatureHeaders } from './sign';

// One request to a receiver, the way every delivery goes (the queue's flights and the console's test event): the
// address rules checked (names resolved) right before, signed with the current secret and, until it stops, the rotated
// one, a fresh webhook-timestamp each time, redirects never followed, and a bounded wait.

export const USER_AGENT = 'Relay-Webhooks/1';
/** A batch request's webhook-id: its first event's id with this prefix (a retry of the same batch keeps it). */
export const BATCH_ID_PREFIX = 'batch_';

/** What the request needs of D1's webhook_endpoints row. */
export interface EndpointTarget {
  id: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: string | null;
  headers: string | null;
}

export interface OutgoingEvent {
  id: string;
  type: string;
  timestamp: string;
  /** The event's data as JSON text. */
  data: string;
}

/** How the receiver answered: 2xx is delivered; anything else, or no answer, failed. */
export interface RequestOutcome {
  ok: boolean;
  status: number | null;
  error: string | null;
  ms: number;
}

export type RequestEnv = AddressEnv & Pick<Env, 'SECRETS_KEY' | 'WEBHOOK_CLOCK_SCALE'>;

/** The event's envelope as delivered and in the stream: { id, type, version, timestamp, data }. */
export const envelopeJson = (event: OutgoingEvent) =>
  `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"version":${EVENT_VERSION},"timestamp":${JSON.stringify(event.timestamp)},"data":${event.data}}`;

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
async function signingSecrets(env: RequestEnv, target: EndpointTarget, now: number): Promise<string[]> {
  const secrets = [await openEndpointSecret(env, target.secret)];
  if (target.previousSecret && target.previousSecretUntil && Date.parse(target.previousSecretUntil) > now) {
    secrets.push(await openEndpointSecret(env, target.previousSecret));
  }
  return secrets;
}

/** POSTs events to the endpoint: one event as an object, or (batch) an array of them in one request. */
export async function postEvents(env: RequestEnv, target: EndpointTarget, events: OutgoingEvent[], batch: boolean): Promise<RequestOutcome> {
  const started = Date.now();
  const address = await checkEndpointUrl(env, target.url, { resolve: true });
  if (!address.ok) return { ok: false, status: null, error: `address_refused: ${address.message}`, ms: 0 };
  const body = batch ? `[${events.map(envelopeJson).join(',')}]` : envelopeJson(events[0]);
  const id = batch ? `${BATCH_ID_PREFIX}${events[0].id}` : events[0].id;
  const now = clockNow();
  let headers: Record<string, string>;
  try {
    headers = {
      ...(await openEndpointHeaders(env, target.headers)),
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      ...(await signatureHeaders(await signingSecrets(env, target, now), id, Math.floor(now / 1000), body)),
    };
  } catch (error) {
    return { ok: false, status: null, error: `signing_failed: ${String(error)}`, ms: 0 };
  }
  try {
    const response = await fetch(target.url, { method: 'POST', body, headers, redirect: 'manual', signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS) });
    await response.body?.cancel();
    const ms = Date.now() - started;
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, error: null, ms };
    const error = response.status >= 300 && response.status < 400 ? `redirect_not_followed: HTTP ${response.status}` : `HTTP ${response.status}`;
    return { ok: false, status: response.status, error, ms };
  } catch (error) {
    const ms = Date.now() - started;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      ok: false,
      status: null,
      error: timedOut ? `timeout: no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s` : `connection_failed: ${String(error)}`,
      ms,
    };
  }
}
