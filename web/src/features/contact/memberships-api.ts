import type { ContactMemberships, MembershipInput } from '@shared/contracts/membership';
import type { ItemBody } from '@shared/errors';
import useSWR from 'swr';
import type { ApiClient } from '../../lib/api-client';

/** GET and PUT /contact/{id}/memberships: the contact's standing in each subscription and its sign-ups' consent. */
export const contactMembershipsPath = (contactId: number) => `/contact/${contactId}/memberships`;

/** The contact's memberships and consents (issue 39). */
export function useContactMemberships(contactId: number) {
  return useSWR<ItemBody<ContactMemberships>>(contactMembershipsPath(contactId));
}

/** Sets the contact's standing in one subscription (the others are left as they are); answers the new memberships. */
export function putContactMembership(client: ApiClient, contactId: number, membership: MembershipInput): Promise<ContactMemberships> {
  return client.put<ItemBody<ContactMemberships>>(contactMembershipsPath(contactId), { memberships: [membership] }).then((body) => body.data);
}
