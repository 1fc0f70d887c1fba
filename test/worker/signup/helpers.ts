import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import { callHost, type CallInit, mailsTo, PASSWORD } from '../helpers';

// Calls on the bare platform host (sign-up, pre-registration, operator), as the browser or the CLI sends them.

export const OPERATOR = 'test-operator-token';
export const PLATFORM = 'http://localhost:8787';

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** A request to the bare platform host; `json` becomes the body, `token` the bearer. */
export async function platform(path: string, init: CallInit = {}): Promise<Answer> {
  const res = await callHost(new URL(PLATFORM).host, path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed };
}

/** An operator API call with the configured token. */
export function operator(method: string, path: string, json?: unknown): Promise<Answer> {
  return platform(`/api/v1/operator${path}`, { method, json, token: OPERATOR });
}

/** Sets the sign-up settings through the operator API (they are global to a test file's storage). */
export async function setSignup(settings: Record<string, unknown>): Promise<void> {
  const res = await operator('PUT', '/settings', settings);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A valid sign-up body for a domain. */
export function signupBody(domain: string, overrides: { user?: Record<string, unknown>; organization?: Record<string, unknown>; invite?: string } = {}) {
  return {
    user: { name: 'Ada Owner', email: `Ada@${domain}.test`, password: PASSWORD, ...overrides.user },
    organization: { name: `${domain} Ltd`, domain, ...overrides.organization },
    ...(overrides.invite !== undefined ? { invite: overrides.invite } : {}),
  };
}

/** Starts a sign-up and expects it accepted; returns its view. */
export async function startSignup(domain: string, overrides: Parameters<typeof signupBody>[1] = {}) {
  const res = await platform('/api/v1/signup', { method: 'POST', json: signupBody(domain, overrides) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; status: string; checkout_url: string; email: string; domain: string; amount: number; currency: string };
}

/** The code of the sign-up completion link mailed to an address (the last one). */
export async function completionCode(address: string, domain: string): Promise<string> {
  const mails = (await mailsTo(address)).filter((m) => m.subject === 'Complete your registration');
  const text = mails[mails.length - 1]?.text ?? '';
  const match = new RegExp(`http://${domain}\\.localhost:8787/sign-complete\\?code=([A-Za-z0-9_-]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return decodeURIComponent(match![1]);
}

/** A count(*) AS n query's answer. */
export async function count(sql: string, ...params: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>();
  return row!.n;
}
