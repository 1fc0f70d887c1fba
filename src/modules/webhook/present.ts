// A webhook_endpoints row as the API answers it (src/shared/contracts/webhook.ts endpointSchema): never the secret,
// and the custom headers by name only, each value masked.
import type { Env } from '../../env';
import { type Endpoint, type EndpointDisabledReason, type EndpointEventType, type EndpointState, HEADER_VALUE_MASK } from '../../shared/contracts/webhook';
import type { EndpointRow } from './endpoint-store';
import { openEndpointHeaders } from './secrets';

/** The console's badge: turned off by the platform (disabled), by its owner (off), failing, or active. */
export function endpointState(row: Pick<EndpointRow, 'enabled' | 'disabledReason' | 'failingSince'>): EndpointState {
  if (!row.enabled) return row.disabledReason ? 'disabled' : 'off';
  return row.failingSince ? 'failing' : 'active';
}

export async function presentEndpoint(env: Pick<Env, 'SECRETS_KEY'>, row: EndpointRow): Promise<Endpoint> {
  const headers = await openEndpointHeaders(env, row.headers);
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes as EndpointEventType[],
    headers: Object.fromEntries(Object.keys(headers).map((name) => [name, HEADER_VALUE_MASK])),
    enabled: row.enabled,
    batch: row.batch,
    state: endpointState(row),
    disabled_reason: row.disabledReason as EndpointDisabledReason | null,
    disabled_at: row.disabledAt,
    failing_since: row.failingSince,
    previous_secret_until: row.previousSecretUntil,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}
