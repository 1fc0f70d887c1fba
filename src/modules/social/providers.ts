import type { Env } from '../../env';
import { platformOrigin } from '../../lib/org-url';

/** A social sign-in provider offered to users: its id (github, google, oidc) and the name shown. */
export interface ConfiguredProvider {
  id: string;
  name: string;
}

/** How the person's identity is read once the code is exchanged (see profile.ts). */
export type ProfileSource = 'github' | 'userinfo';

/**
 * A provider described as data: adding one is a new entry here, not new code. Endpoints are either fixed
 * (`endpoints`) or discovered from an OpenID Connect issuer (`issuer`, or the env var named by `issuerVar`).
 */
interface ProviderSpec {
  id: string;
  name: string;
  /** Env var that overrides the name shown. */
  nameVar?: keyof Env;
  clientIdVar: keyof Env;
  clientSecretVar: keyof Env;
  issuer?: string;
  issuerVar?: keyof Env;
  endpoints?: { authorization: string; token: string };
  scopes: string[];
  profile: ProfileSource;
}

const OIDC_SCOPES = ['openid', 'email', 'profile'];

const PROVIDERS: ProviderSpec[] = [
  {
    id: 'github',
    name: 'GitHub',
    clientIdVar: 'OAUTH_GITHUB_CLIENT_ID',
    clientSecretVar: 'OAUTH_GITHUB_CLIENT_SECRET',
    endpoints: { authorization: 'https://github.com/login/oauth/authorize', token: 'https://github.com/login/oauth/access_token' },
    scopes: ['read:user', 'user:email'],
    profile: 'github',
  },
  {
    id: 'google',
    name: 'Google',
    clientIdVar: 'OAUTH_GOOGLE_CLIENT_ID',
    clientSecretVar: 'OAUTH_GOOGLE_CLIENT_SECRET',
    issuer: 'https://accounts.google.com',
    scopes: OIDC_SCOPES,
    profile: 'userinfo',
  },
  {
    id: 'oidc',
    name: 'OpenID Connect',
    nameVar: 'OAUTH_OIDC_NAME',
    clientIdVar: 'OAUTH_OIDC_CLIENT_ID',
    clientSecretVar: 'OAUTH_OIDC_CLIENT_SECRET',
    issuerVar: 'OAUTH_OIDC_ISSUER',
    scopes: OIDC_SCOPES,
    profile: 'userinfo',
  },
];

/** A configured provider with everything the OAuth flow needs. */
export interface ResolvedProvider extends ConfiguredProvider {
  clientId: string;
  clientSecret: string;
  /** Where the provider sends the browser back: one URL on the platform host for every organisation. */
  redirectUri: string;
  scopes: string[];
  profile: ProfileSource;
  issuer: string | null;
  endpoints: { authorization: string; token: string } | null;
}

const envText = (env: Env, key: keyof Env | undefined): string => {
  const value = key ? env[key] : undefined;
  return typeof value === 'string' ? value.trim() : '';
};

function resolve(env: Env, spec: ProviderSpec): ResolvedProvider | null {
  const clientId = envText(env, spec.clientIdVar);
  const clientSecret = envText(env, spec.clientSecretVar);
  const issuer = spec.issuer ?? (envText(env, spec.issuerVar).replace(/\/+$/, '') || null);
  if (!clientId || !clientSecret) return null;
  if (!spec.endpoints && !issuer) return null;
  return {
    id: spec.id,
    name: envText(env, spec.nameVar) || spec.name,
    clientId,
    clientSecret,
    redirectUri: `${platformOrigin(env)}/api/v1/social/callback/${spec.id}`,
    scopes: spec.scopes,
    profile: spec.profile,
    issuer: spec.endpoints ? null : issuer,
    endpoints: spec.endpoints ?? null,
  };
}

/** The providers configured in this deployment (a preset is offered when its client id and secret are set). */
export function configuredProviders(env: Env): ConfiguredProvider[] {
  return PROVIDERS.map((spec) => resolve(env, spec))
    .filter((p): p is ResolvedProvider => p !== null)
    .map(({ id, name }) => ({ id, name }));
}

/** One configured provider by id, with its credentials and endpoints; null when unknown or not configured. */
export function findProvider(env: Env, id: string): ResolvedProvider | null {
  const spec = PROVIDERS.find((p) => p.id === id);
  return spec ? resolve(env, spec) : null;
}
