import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { call, createOrg, signIn } from './helpers';

export interface Session {
  org: string;
  orgId: number;
  token: string;
}

let counter = 0;

/** A fresh organisation with a signed-in owner (storage is shared by the tests of a file). */
export async function newSession(prefix = 'aud'): Promise<Session> {
  const org = `${prefix}${++counter}x${Math.floor(Math.random() * 1e6)}`;
  const { orgId, username } = await createOrg(org);
  return { org, orgId, token: (await signIn(org, username)).access_token };
}

type Init = RequestInit & { json?: unknown; headers?: Record<string, string> };

/** Calls /api/v1<path> as the session's user; returns status and parsed JSON body. */
export async function api<T = any>(s: Session, method: string, path: string, json?: unknown, headers?: Record<string, string>) {
  const init: Init = { method, token: s.token, headers } as Init;
  if (json !== undefined) init.json = json;
  const res = await call(s.org, `/api/v1${path}`, init);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

/** POSTs and expects 201; returns `data`. */
export async function create<T = any>(s: Session, entity: string, json: unknown): Promise<T> {
  const res = await api(s, 'POST', `/${entity}`, json);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as T;
}

/** Lists and expects 200. */
export async function list<T = any>(s: Session, entity: string, query = '') {
  const res = await api<{ items: T[]; meta: { total: number; page: number; page_size: number; total_pages: number } }>(s, 'GET', `/${entity}${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Expects a 422 with exactly these field messages (others fields may not appear). */
export function expect422(res: { status: number; body: any }, fields: Record<string, string[]>) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error.code).toBe('validation_failed');
  expect(res.body.error.fields).toEqual(fields);
}

/** Raw rows straight from D1, bypassing the API. */
export async function rows<T = Record<string, unknown>>(query: string, ...params: unknown[]): Promise<T[]> {
  return (
    await env.DB.prepare(query)
      .bind(...params)
      .all<T>()
  ).results;
}
