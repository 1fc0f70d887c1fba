export declare const LOCAL_OIDC_PERSON: { sub: string; email: string; name: string };
export declare const LOCAL_OIDC_CLIENT: { id: string; secret: string; name: string };
export declare function startOidcProvider(options?: { port?: number; person?: { sub: string; email: string; name: string } }): Promise<{ issuer: string; port: number; close(): Promise<void> }>;
export declare function oidcProviderVars(issuer: string): Record<string, string>;
