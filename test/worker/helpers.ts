import { env, exports } from 'cloudflare:workers';
import { hashPassword } from '../../src/lib/password';

export const PASSWORD = 'Secret-123';

/** Creates an organisation with one user; returns their ids. */
export async function createOrg(domain: string, username = `owner@${domain}.test`) {
  const org = await env.DB.prepare('INSERT INTO organizations (name, domain) VALUES (?, ?) RETURNING id')
    .bind(`${domain} Inc`, domain)
    .first<{ id: number }>();
  const user = await env.DB.prepare('INSERT INTO users (org_id, name, username, email, password_hash) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .bind(org!.id, `${domain} owner`, username, username, await hashPassword(PASSWORD))
    .first<{ id: number }>();
  return { orgId: org!.id, userId: user!.id, username, domain };
}

/** A request to the worker as a browser on `{org}.localhost` would send it. */
export function call(org: string, path: string, init: RequestInit & { json?: unknown; token?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set('host', `${org}.localhost:8787`);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`http://${org}.localhost:8787${path}`, { ...init, headers, body }));
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  auth_type_id: number;
}

/** Signs in and returns the token pair. */
export async function signIn(org: string, username: string, password = PASSWORD): Promise<Tokens> {
  const res = await call(org, '/api/v1/internal-auth/token-create', { method: 'POST', json: { username, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return res.json();
}
