// Links to an organisation's own host, built from PUBLIC_URL (https://example.com → https://acme.example.com).

/** The platform's own origin (the bare host sign-up runs on), e.g. https://example.com. */
export function platformOrigin(env: { PUBLIC_URL: string }): string {
  const base = new URL(env.PUBLIC_URL || 'https://localhost');
  return `${base.protocol}//${base.host}`;
}

/** An absolute URL on an organisation's subdomain: orgUrl(env, 'acme', '/password-reset?code=x'). */
export function orgUrl(env: { PUBLIC_URL: string }, orgDomain: string, pathAndQuery: string): string {
  const base = new URL(env.PUBLIC_URL || 'https://localhost');
  return `${base.protocol}//${orgDomain}.${base.host}${pathAndQuery.startsWith('/') ? '' : '/'}${pathAndQuery}`;
}

/** An organisation's own origin, e.g. https://acme.example.com (no trailing slash). */
export function orgOrigin(env: { PUBLIC_URL: string }, orgDomain: string): string {
  const base = new URL(env.PUBLIC_URL || 'https://localhost');
  return `${base.protocol}//${orgDomain}.${base.host}`;
}
