// Helpers for the identity browser tests: unique names, the caught mail, API calls from Node with the tenant's
// Host header, and the password sign-in / sign-out a person does in the console.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { requestWithHost } from '../../scripts/lib/http.mjs';
import { byId, passwordSignIn } from './console';

export { passwordSignIn };

/** A password the shared policy accepts (upper, lower, digit, special, long enough). */
export const NEW_PASSWORD = 'Sunny-Day-42!';

/** A fresh organisation label or name part: `e2e-<prefix>-<random>` (lowercase, digits, hyphens). */
export function uniqueLabel(prefix: string): string {
  return `e2e-${prefix}-${randomBytes(4).toString('hex')}`;
}

/** http://<domain>.localhost:<port>: where an organisation's console lives (Chromium resolves *.localhost itself). */
export function orgUrl(port: number, domain: string): string {
  return `http://${domain}.localhost:${port}`;
}

/** A JSON API call from Node: to 127.0.0.1:<port> with Host <host> (Node's fetch cannot resolve *.localhost). */
export async function hostCall<T = unknown>(
  port: number,
  host: string,
  method: string,
  path: string,
  options: { json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: T }> {
  const res = await requestWithHost(port, host, method, path, { ...options, timeoutMs: 20_000 });
  let body: unknown = null;
  try {
    body = res.body ? JSON.parse(res.body) : null;
  } catch {
    body = res.body;
  }
  return { status: res.status, body: body as T };
}

/** One message as the mail catcher's /messages.json lists it. */
export interface CaughtMail {
  id: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** All caught mail to `to` (newest first). */
export async function mailTo(mailUrl: string, to: string): Promise<CaughtMail[]> {
  const res = await fetch(`${mailUrl}/messages.json`);
  expect(res.status).toBe(200);
  const all = (await res.json()) as CaughtMail[];
  return all.filter((m) => m.to.map((a) => a.toLowerCase()).includes(to.toLowerCase()));
}

/**
 * Waits until the catcher holds a message to `to` whose subject matches, and that is not one of `seen` (ids of
 * earlier mail to the same address). Mail is sent by the queue consumer, so it arrives a moment after the call.
 */
export async function waitForMail(mailUrl: string, to: string, subject: RegExp, seen: string[] = [], timeoutMs = 45_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailTo(mailUrl, to)).find((m) => subject.test(m.subject) && !seen.includes(m.id));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} with subject ${subject} within ${timeoutMs / 1000}s`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The first link in a mail's text whose path is `path` (e.g. /sign-complete), as a URL. */
export function linkIn(mail: CaughtMail, path: string): URL {
  const links = mail.text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
  const link = links.map((l) => new URL(l)).find((u) => u.pathname === path);
  if (!link) throw new Error(`no ${path} link in mail "${mail.subject}":\n${mail.text}`);
  return link;
}

/** What a sign-up is made of. */
export interface SignupAccount {
  name: string;
  email: string;
  password: string;
  orgName: string;
  domain: string;
}

/** A fresh sign-up's values: unique domain and email, the policy-conform password. */
export function freshAccount(prefix: string): SignupAccount {
  const domain = uniqueLabel(prefix);
  return { name: `Person ${prefix}`, email: `${domain}@example.test`, password: 'Start-Pass-1!', orgName: `Org ${domain}`, domain };
}

/**
 * Signs up through the API (POST /api/v1/signup, test payment) on the bare platform host, then reads the
 * completion mail and uses its code (POST /internal-user/sign-complete on the new organisation's host).
 * Leaves a working account that signs in with its password.
 */
export async function signUpByApi(port: number, mailUrl: string, account: SignupAccount): Promise<void> {
  const platformHost = `localhost:${port}`;
  const created = await hostCall<{ data: { id: string; status: string } }>(port, platformHost, 'POST', '/api/v1/signup', {
    json: { user: { name: account.name, email: account.email, password: account.password }, organization: { name: account.orgName, domain: account.domain } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const paid = await hostCall<{ data: { status: string } }>(port, platformHost, 'POST', `/api/v1/signup/${created.body.data.id}/test-payment`, { json: {} });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const mail = await waitForMail(mailUrl, account.email, /complete your registration/i);
  const link = linkIn(mail, '/sign-complete');
  expect(link.host).toBe(`${account.domain}.localhost:${port}`);
  const done = await hostCall(port, link.host, 'POST', '/api/v1/internal-user/sign-complete', { json: { code: link.searchParams.get('code') } });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
}

/** Signs in and waits for the signed-in home (the dashboard). */
export async function signInAs(page: Page, base: string, username: string, password: string): Promise<void> {
  expect(await passwordSignIn(page, base, username, password)).toBe(200);
  await byId(page, 'dashboard').waitFor();
}

/** Signs out through the account menu and waits for the sign-in card. */
export async function signOut(page: Page): Promise<void> {
  await byId(page, 'account-menu').click();
  await byId(page, 'signout').click();
  await byId(page, 'signin-card').waitFor();
}
