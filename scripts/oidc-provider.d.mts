export declare const LOCAL_OIDC_PERSON: { sub: string; email: string; name: string };
export declare const LOCAL_OIDC_CLIENT: { id: string; secret: string; name: string };
export declare function startOidcProvider(options?: {
  port?: number;
  person?: { sub: string; email: string; name: string };
  /** Installs the provider's event handlers (oauth2-mock-server `service.on(...)`) instead of the default ones. */
  install?: (service: import('oauth2-mock-server').OAuth2Service) => void;
}): Promise<{ issuer: string; port: number; close(): Promise<void> }>;
export declare function oidcProviderVars(issuer: string, client?: { id: string; secret: string; name: string }): Record<string, string>;
