import type { LinkClicks, MessageEngagement } from '@shared/contracts/tracking';
import type { BroadcastUnsubscribe, ContactOptOuts } from '@shared/contracts/unsubscribe';
import type { ItemBody } from '@shared/errors';
import { useEffect, useRef } from 'react';
import useSWR from 'swr';
import type { ApiClient } from '../../lib/api-client';

// What the console reads of engagement: a broadcast's clicks per link and unsubscribes, one message's hits,
// and a contact's opt-outs (with the organisation's re-subscribe).

export const ENGAGEMENT_PATHS = {
  broadcastClicks: (id: number) => `/broadcast/${id}/clicks`,
  broadcastUnsubscribes: (id: number) => `/broadcast/${id}/unsubscribes`,
  messageEngagement: (id: number) => `/message/${id}/engagement`,
  contactOptOuts: (id: number) => `/contact/${id}/unsubscribes`,
  contactResubscribe: (id: number, subscriptionId: number) => `/contact/${id}/unsubscribes/${subscriptionId}`,
  contactSuppression: (id: number, entryId: number) => `/contact/${id}/suppressions/${entryId}`,
} as const;

/** Refetches `swr` when `version` (a counter the live progress moves) changes after the first load. */
function useRefetchOn<T extends { mutate: () => unknown }>(swr: T, version: number): T {
  const seen = useRef(version);
  useEffect(() => {
    if (seen.current === version) return;
    seen.current = version;
    void swr.mutate();
  }, [swr, version]);
  return swr;
}

/** Clicks per link of a broadcast; refetched when its click counter (`version`) moves. */
export function useBroadcastClicks(id: number, version: number) {
  return useRefetchOn(useSWR<ItemBody<LinkClicks[]>>(ENGAGEMENT_PATHS.broadcastClicks(id)), version);
}

/** The latest unsubscribes of a broadcast; refetched when its unsubscribe counter (`version`) moves. */
export function useBroadcastUnsubscribes(id: number, version: number) {
  return useRefetchOn(useSWR<ItemBody<BroadcastUnsubscribe[]>>(ENGAGEMENT_PATHS.broadcastUnsubscribes(id)), version);
}

export function useMessageEngagement(id: number) {
  return useSWR<ItemBody<MessageEngagement>>(ENGAGEMENT_PATHS.messageEngagement(id));
}

export function useContactOptOuts(id: number) {
  return useSWR<ItemBody<ContactOptOuts>>(ENGAGEMENT_PATHS.contactOptOuts(id));
}

/** DELETE /contact/{id}/unsubscribes/{subscriptionId}: the organisation re-subscribes the contact. */
export function resubscribeContact(client: ApiClient, contactId: number, subscriptionId: number): Promise<unknown> {
  return client.delete(ENGAGEMENT_PATHS.contactResubscribe(contactId, subscriptionId));
}

/** DELETE /contact/{id}/suppressions/{entryId}: the organisation lifts a suppression (the address is mailed again). */
export function liftSuppression(client: ApiClient, contactId: number, entryId: number): Promise<unknown> {
  return client.delete(ENGAGEMENT_PATHS.contactSuppression(contactId, entryId));
}
