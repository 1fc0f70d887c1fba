import type { UnsubscribeBody, UnsubscribePageData } from '@shared/contracts/unsubscribe';
import type { ItemBody } from '@shared/errors';
import type { ApiClient } from '../../lib/api-client';

// The public unsubscribe page's calls: guest calls (no session), each carrying the signed link `m` of the email.

export const UNSUBSCRIBE_PATH = '/unsubscribe';

export function unsubscribeCalls(client: ApiClient, m: string) {
  return {
    load: () => client.get<ItemBody<UnsubscribePageData>>(UNSUBSCRIBE_PATH, { m }, { guest: true }).then((b) => b.data),
    leave: (input: Omit<UnsubscribeBody, 'm'>) =>
      client.post<ItemBody<UnsubscribePageData>>(UNSUBSCRIBE_PATH, { ...input, m }, { guest: true }).then((b) => b.data),
    join: (subscriptionId: number) =>
      client
        .post<ItemBody<UnsubscribePageData>>(`${UNSUBSCRIBE_PATH}/resubscribe`, { m, subscription_id: subscriptionId }, { guest: true })
        .then((b) => b.data),
  };
}
