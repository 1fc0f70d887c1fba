import type { ApiKeyRow, OrganizationSettings, OrganizationUpdate, SessionRow } from '@shared/contracts/account';
import type { CurrentUser } from '@shared/contracts/auth';
import type { OrgKeyCreate, OrgKeyRow } from '@shared/contracts/org-api-key';
import type { SocialProviderView } from '@shared/contracts/social';
import type { ItemBody } from '@shared/errors';
import { useMemo } from 'react';
import useSWR from 'swr';
import { useServices } from '../../lib/services-context';
import type { ApiClient } from '../../lib/api-client';

/** API paths of the account area (spec section 7 and the identity issue). */
export const ACCOUNT_PATHS = {
  user: (id: number) => `/internal-user/${id}`,
  password: (id: number) => `/internal-user/${id}/password`,
  organization: '/organization',
  social: '/social',
  socialAuthorize: (provider: string) => `/social/${encodeURIComponent(provider)}/authorize`,
  socialLink: (provider: string) => `/social/${encodeURIComponent(provider)}/link`,
  socialOne: (provider: string) => `/social/${encodeURIComponent(provider)}`,
  apiKeys: '/internal-api-key',
  apiKey: (id: number) => `/internal-api-key/${id}`,
  apiKeyRegenerate: (id: number) => `/internal-api-key/${id}/regenerate`,
  sessions: '/session',
  session: (id: string) => `/session/${encodeURIComponent(id)}`,
  orgKeys: '/organization-api-key',
  orgKey: (id: number) => `/organization-api-key/${id}`,
} as const;

/** The list answers of /internal-api-key, /organization-api-key and /session: every row at once, no paging. */
export interface RowsBody<T> {
  items: T[];
}

/** Profile payload: the name plus the login, as an email or as a username. */
export interface ProfileInput {
  name: string;
  email?: string;
  username?: string;
}

/** Every write call of the account area, bound to the app's API client. */
export function accountCalls(client: ApiClient) {
  return {
    updateProfile: (id: number, input: ProfileInput) => client.put<ItemBody<CurrentUser>>(ACCOUNT_PATHS.user(id), input).then((b) => b.data),
    changePassword: (id: number, input: { current_password?: string; password: string }) =>
      client.put<ItemBody<CurrentUser> | null>(ACCOUNT_PATHS.password(id), input).then((b) => b?.data ?? null),
    removePassword: (id: number) => client.delete<ItemBody<CurrentUser> | null>(ACCOUNT_PATHS.password(id)).then((b) => b?.data ?? null),
    deleteAccount: (id: number, confirm: string) => client.delete(ACCOUNT_PATHS.user(id), { confirm }),
    updateOrganization: (input: OrganizationUpdate) => client.put<ItemBody<OrganizationSettings>>(ACCOUNT_PATHS.organization, input).then((b) => b.data),
    authorizeSocial: (provider: string) =>
      client.post<ItemBody<{ url: string }>>(ACCOUNT_PATHS.socialAuthorize(provider), { action: 'link' }).then((b) => b.data.url),
    /** Confirms a link the provider verified, with the state its callback handed back to this tab. */
    confirmSocialLink: (provider: string, state: string) => client.post(ACCOUNT_PATHS.socialLink(provider), { state }),
    unlinkSocial: (provider: string) => client.delete(ACCOUNT_PATHS.socialOne(provider)),
    createApiKey: (note: string | null) => client.post<ItemBody<ApiKeyRow>>(ACCOUNT_PATHS.apiKeys, { note }).then((b) => b.data),
    updateApiKey: (id: number, note: string | null) => client.put<ItemBody<ApiKeyRow>>(ACCOUNT_PATHS.apiKey(id), { note }).then((b) => b.data),
    regenerateApiKey: (id: number) => client.post<ItemBody<ApiKeyRow>>(ACCOUNT_PATHS.apiKeyRegenerate(id)).then((b) => b.data),
    deleteApiKey: (id: number) => client.delete(ACCOUNT_PATHS.apiKey(id)),
    /** Creates an organisation key: the answer carries the key itself, the only time it is shown. */
    createOrgKey: (input: OrgKeyCreate) => client.post<ItemBody<OrgKeyRow>>(ACCOUNT_PATHS.orgKeys, input).then((b) => b.data),
    revokeOrgKey: (id: number) => client.delete<ItemBody<OrgKeyRow>>(ACCOUNT_PATHS.orgKey(id)).then((b) => b.data),
    revokeSession: (id: string) => client.delete(ACCOUNT_PATHS.session(id)),
    revokeSessions: (ids: string[]) => client.delete(ACCOUNT_PATHS.sessions, { ids }),
    /** Request keys under which the client keeps each form's 422 field messages. */
    keys: {
      profile: (id: number) => client.keyOf('PUT', ACCOUNT_PATHS.user(id)),
      password: (id: number) => client.keyOf('PUT', ACCOUNT_PATHS.password(id)),
      organization: () => client.keyOf('PUT', ACCOUNT_PATHS.organization),
      apiKeyCreate: () => client.keyOf('POST', ACCOUNT_PATHS.apiKeys),
      apiKeyUpdate: (id: number) => client.keyOf('PUT', ACCOUNT_PATHS.apiKey(id)),
      orgKeyCreate: () => client.keyOf('POST', ACCOUNT_PATHS.orgKeys),
    },
  };
}

export type AccountCalls = ReturnType<typeof accountCalls>;

/** The account calls on the app's client (stable across renders). */
export function useAccountCalls(): AccountCalls {
  const { client } = useServices();
  return useMemo(() => accountCalls(client), [client]);
}

/** The current organisation (GET /organization). */
export function useOrganization() {
  return useSWR<ItemBody<OrganizationSettings>>(ACCOUNT_PATHS.organization);
}

/** Configured social providers and which ones the user has linked (GET /social). */
export function useSocialProviders() {
  return useSWR<ItemBody<SocialProviderView[]>>(ACCOUNT_PATHS.social);
}

/** The user's API key rows (at most one; GET /internal-api-key). */
export function useApiKeys() {
  return useSWR<RowsBody<ApiKeyRow>>(ACCOUNT_PATHS.apiKeys);
}

/** The organisation's API keys, revoked ones too (GET /organization-api-key). */
export function useOrgKeys() {
  return useSWR<RowsBody<OrgKeyRow>>(ACCOUNT_PATHS.orgKeys);
}

/** The user's live sessions (GET /session). */
export function useSessions() {
  return useSWR<RowsBody<SessionRow>>(ACCOUNT_PATHS.sessions);
}
