import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call, callHost, type CallInit, createOrg, signIn } from '../helpers';
import { operator } from '../signup/helpers';

// Organisation API keys (src/modules/api-key): an organisation with a signed-in owner, keys made through the API as the
// console makes them, and calls made with a key (Authorization: Bearer rk_...), on the organisation's host or with X-ORG.

export interface KeyOrg {
  orgId: number;
  userId: number;
  username: string;
  domain: string;
  /** The owner's console access token. */
  token: string;
}

/** A new organisation and its owner's console token. */
export async function keyOrg(domain: string): Promise<KeyOrg> {
  const org = await createOrg(domain);
  const { access_token } = await signIn(domain, org.username);
  return { ...org, token: access_token };
}

/** POST /organization-api-key with the owner's console token. */
export function createKey(org: KeyOrg, json: unknown) {
  return call(org.domain, '/api/v1/organization-api-key', { method: 'POST', token: org.token, json });
}

/** A new key of `scope` (live unless `test`): its row as created, with the key itself. */
export async function newKey(org: KeyOrg, scope: 'send' | 'read' | 'full', options: { name?: string; test?: boolean } = {}) {
  const res = await createKey(org, { name: options.name ?? `${scope} key`, scope, test: options.test ?? false });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { data: { id: number; key: string; prefix: string; name: string } }).data;
}

/** A call made with an organisation key on `domain`'s own host. */
export function withKey(domain: string, key: string, path: string, init: CallInit = {}) {
  return call(domain, path, { ...init, token: key });
}

/** A call made with an organisation key from anywhere: the bare host, X-ORG naming the organisation. */
export function withKeyAndXOrg(xOrg: string, key: string, path: string, init: CallInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-org', xOrg);
  return callHost('localhost:8787', path, { ...init, headers, token: key });
}

/** The stored row of a key, as D1 has it. */
export function storedKey(id: number) {
  return env.DB.prepare('SELECT * FROM org_api_keys WHERE id = ?').bind(id).first<Record<string, unknown>>();
}

/** Sets an organisation's API limits through the operator API. */
export async function setLimits(domain: string, limits: Record<string, number>) {
  const res = await operator('PUT', `/organizations/${domain}/api-limits`, limits);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
