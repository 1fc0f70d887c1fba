import { ALL_EVENT_TYPES, ENDPOINT_HEADERS_MAX, type Endpoint, type EndpointCreate, RESERVED_HEADERS, WEBHOOK_MESSAGES } from '@shared/contracts/webhook';
import { MESSAGES } from '@shared/messages';

/** The add/edit form's state: header rows as pairs (a row keeps its place while its name is typed). */
export interface EndpointFormValues {
  url: string;
  description: string;
  eventTypes: string[];
  headers: { name: string; value: string }[];
  batch: boolean;
  enabled: boolean;
}

export const emptyEndpointForm = (): EndpointFormValues => ({ url: '', description: '', eventTypes: [], headers: [], batch: false, enabled: true });

/** An endpoint as the form edits it: header values come masked and go back masked unless retyped (the API keeps them). */
export function formValuesOf(endpoint: Endpoint): EndpointFormValues {
  return {
    url: endpoint.url,
    description: endpoint.description ?? '',
    eventTypes: [...endpoint.event_types],
    headers: Object.entries(endpoint.headers).map(([name, value]) => ({ name, value })),
    batch: endpoint.batch,
    enabled: endpoint.enabled,
  };
}

const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const RESERVED = new Set<string>(RESERVED_HEADERS);

/**
 * What the browser can tell before sending, with the API's own messages and field paths (so the same texts show
 * either way): an https address, at least one event type, header names valid and not the platform's. The address
 * rules (private ranges, the platform's hosts) are the server's.
 */
export function checkEndpointForm(values: EndpointFormValues): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const url = values.url.trim();
  if (!url) errors.url = [MESSAGES.required];
  else if (!/^https?:\/\/[^/\s]+/i.test(url)) errors.url = [WEBHOOK_MESSAGES.url];
  if (values.eventTypes.length === 0) errors.event_types = [WEBHOOK_MESSAGES.eventTypes];
  const rows = values.headers.filter((h) => h.name.trim() || h.value);
  if (rows.length > ENDPOINT_HEADERS_MAX) errors.headers = [WEBHOOK_MESSAGES.headers];
  rows.forEach((h, index) => {
    const name = h.name.trim();
    if (!HEADER_TOKEN.test(name)) errors[`headers.${index}`] = [WEBHOOK_MESSAGES.headerName];
    else if (RESERVED.has(name.toLowerCase())) errors[`headers.${index}`] = [WEBHOOK_MESSAGES.headerReserved];
  });
  return errors;
}

/** The body of POST or PATCH /webhooks. */
export function endpointInputOf(values: EndpointFormValues): Required<Omit<EndpointCreate, 'description'>> & { description: string | null } {
  const rows = values.headers.filter((h) => h.name.trim());
  return {
    url: values.url.trim(),
    description: values.description.trim() || null,
    event_types: values.eventTypes.includes(ALL_EVENT_TYPES) ? [ALL_EVENT_TYPES] : (values.eventTypes as EndpointCreate['event_types']),
    headers: Object.fromEntries(rows.map((h) => [h.name.trim(), h.value])),
    batch: values.batch,
    enabled: values.enabled,
  };
}
