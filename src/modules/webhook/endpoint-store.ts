// The organisation's webhook endpoints in D1 (webhook_endpoints): building a row's values from the API's input, with
// the signing secret and the custom headers sealed with SECRETS_KEY (headers often carry a token) and opened again
// for the presenter (the sealing is secrets.ts's, shared with the delivery side).
import type { Env } from '../../env';
import type { webhookEndpoints } from '../../db/schema';
import { ALL_EVENT_TYPES, HEADER_VALUE_MASK, SECRET_OVERLAP_MS, type EndpointCreate, type EndpointUpdate } from '../../shared/contracts/webhook';
import { openEndpointHeaders, sealEndpointHeaders, sealEndpointSecret } from './secrets';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
type EndpointValues = Partial<typeof webhookEndpoints.$inferInsert>;
type Keyring = Pick<Env, 'SECRETS_KEY'>;

/** One subscription list: "every type" alone stands for the rest; otherwise each type once, in the order given. */
export function normalEventTypes(types: readonly string[]): string[] {
  return types.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : [...new Set(types)];
}

/** The new row of POST /webhooks, with its secret (given in the clear: the caller sees it once). */
export async function createValues(env: Keyring, input: EndpointCreate, secret: string): Promise<Omit<typeof webhookEndpoints.$inferInsert, 'orgId'>> {
  return {
    url: input.url,
    description: input.description || null,
    eventTypes: normalEventTypes(input.event_types),
    headers: await sealEndpointHeaders(env, input.headers),
    enabled: input.enabled ?? true,
    batch: input.batch ?? false,
    secret: await sealEndpointSecret(env, secret),
  };
}

/**
 * The changed columns of PATCH /webhooks/:id. Given headers replace the set, except that a value sent back as the
 * mask keeps the stored one (the console edits names and new values without ever seeing the old). Turning an endpoint
 * on clears why and since when the platform had it off or failing.
 */
export async function updateValues(env: Keyring, row: EndpointRow, input: EndpointUpdate): Promise<EndpointValues> {
  const values: EndpointValues = { updatedAt: new Date().toISOString() };
  if (input.url !== undefined) values.url = input.url;
  if (input.description !== undefined) values.description = input.description || null;
  if (input.event_types !== undefined) values.eventTypes = normalEventTypes(input.event_types);
  if (input.batch !== undefined) values.batch = input.batch;
  if (input.headers !== undefined) {
    const stored = await openEndpointHeaders(env, row.headers);
    const merged = Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name, value === HEADER_VALUE_MASK ? (stored[name] ?? '') : value]));
    values.headers = await sealEndpointHeaders(env, merged);
  }
  if (input.enabled !== undefined) {
    values.enabled = input.enabled;
    if (input.enabled) Object.assign(values, { disabledReason: null, disabledAt: null, failingSince: null });
  }
  return values;
}

/** A rotation: the new secret signs from now; the current one keeps signing beside it for SECRET_OVERLAP_MS. */
export async function rotationValues(env: Keyring, row: EndpointRow, secret: string, now = Date.now()): Promise<EndpointValues> {
  return {
    secret: await sealEndpointSecret(env, secret),
    previousSecret: row.secret,
    previousSecretUntil: new Date(now + SECRET_OVERLAP_MS).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
}
