import type {
  DeliveryState,
  Endpoint,
  EndpointCreate,
  EndpointTestResult,
  EndpointUpdate,
  EndpointWithSecret,
  WebhookDelivery,
  WebhookDeliveryPage,
} from '@shared/contracts/webhook';
import type { ItemBody } from '@shared/errors';
import type { ListResponse } from '@shared/list';
import { useMemo } from 'react';
import useSWR from 'swr';
import type { ApiClient } from '../../lib/api-client';
import { useServices } from '../../lib/services-context';

/** The webhook endpoints' API paths (issue 38). */
export const WEBHOOK_PATHS = {
  list: '/webhooks',
  one: (id: number) => `/webhooks/${id}`,
  rotate: (id: number) => `/webhooks/${id}/rotate-secret`,
  test: (id: number) => `/webhooks/${id}/test`,
  deliveries: (id: number) => `/webhooks/${id}/deliveries`,
  replayOne: (id: number, eventId: string) => `/webhooks/${id}/deliveries/${eventId}/replay`,
  replaySince: (id: number) => `/webhooks/${id}/replay`,
} as const;

/** One row of an endpoint's delivery log (GET /webhooks/:id/deliveries), newest first. */
export type DeliveryRow = WebhookDelivery;

/** Every write call of the Webhooks screens. */
export function webhookCalls(client: ApiClient) {
  return {
    create: (input: EndpointCreate) => client.post<ItemBody<EndpointWithSecret>>(WEBHOOK_PATHS.list, input).then((b) => b.data),
    update: (id: number, input: EndpointUpdate) =>
      client.request<ItemBody<Endpoint>>({ method: 'PATCH', path: WEBHOOK_PATHS.one(id), body: input }).then((b) => b.data),
    remove: (id: number) => client.delete(WEBHOOK_PATHS.one(id)),
    rotateSecret: (id: number) => client.post<ItemBody<EndpointWithSecret>>(WEBHOOK_PATHS.rotate(id)).then((b) => b.data),
    test: (id: number) => client.post<ItemBody<EndpointTestResult>>(WEBHOOK_PATHS.test(id)).then((b) => b.data),
    replayOne: (id: number, eventId: string) => client.post<ItemBody<{ replayed: number }>>(WEBHOOK_PATHS.replayOne(id, eventId)).then((b) => b.data),
    replaySince: (id: number, since: string) => client.post<ItemBody<{ replayed: number }>>(WEBHOOK_PATHS.replaySince(id), { since }).then((b) => b.data),
    /** The request keys under which the form's 422 field messages land. */
    createKey: () => client.keyOf('POST', WEBHOOK_PATHS.list),
    updateKey: (id: number) => client.keyOf('PATCH', WEBHOOK_PATHS.one(id)),
  };
}

export type WebhookCalls = ReturnType<typeof webhookCalls>;

export function useWebhookCalls(): WebhookCalls {
  const { client } = useServices();
  return useMemo(() => webhookCalls(client), [client]);
}

/** The organisation's endpoints (at most 20: one page). */
export function useWebhooks() {
  return useSWR<ListResponse<Endpoint>>(WEBHOOK_PATHS.list);
}

export function useWebhook(id: number) {
  return useSWR<ItemBody<Endpoint>>(WEBHOOK_PATHS.one(id));
}

/** Deliveries per page of the log. */
export const DELIVERIES_PAGE = 100;

/** A page of an endpoint's deliveries, newest first, optionally of one state, older than event `before` when given. */
export function useDeliveries(id: number, state: DeliveryState | null, before: number | null) {
  return useSWR<WebhookDeliveryPage>([
    WEBHOOK_PATHS.deliveries(id),
    { limit: DELIVERIES_PAGE, ...(state ? { state } : {}), ...(before === null ? {} : { before }) },
  ]);
}
