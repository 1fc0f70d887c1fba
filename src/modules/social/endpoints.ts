import type { ResolvedProvider } from './providers';

/** The URLs of one provider's authorisation, token and (for OpenID Connect) userinfo endpoints. */
export interface ProviderEndpoints {
  authorization: string;
  token: string;
  userinfo: string | null;
}

/** Raised when a provider cannot be reached or answers something unusable; the callback turns it into a readable error. */
export class ProviderError extends Error {}

const isHttpUrl = (value: unknown): value is string => typeof value === 'string' && /^https?:\/\//i.test(value);

/**
 * The provider's endpoints: fixed ones from its description, else read from the issuer's OpenID Connect
 * discovery document (fetched each time it is needed: at most twice per sign-in).
 */
export async function providerEndpoints(provider: ResolvedProvider): Promise<ProviderEndpoints> {
  if (provider.endpoints) return { ...provider.endpoints, userinfo: null };
  const url = `${provider.issuer}/.well-known/openid-configuration`;
  let doc: Record<string, unknown>;
  try {
    const res = await fetch(url, { headers: { accept: 'application/json' } });
    if (!res.ok) throw new ProviderError(`discovery answered ${res.status}`);
    doc = (await res.json()) as Record<string, unknown>;
  } catch (error) {
    throw error instanceof ProviderError ? error : new ProviderError(`discovery failed: ${String(error)}`);
  }
  const { authorization_endpoint: authorization, token_endpoint: token, userinfo_endpoint: userinfo } = doc ?? {};
  if (!isHttpUrl(authorization) || !isHttpUrl(token) || !isHttpUrl(userinfo)) {
    throw new ProviderError('discovery document lacks the authorization, token or userinfo endpoint');
  }
  return { authorization, token, userinfo };
}
