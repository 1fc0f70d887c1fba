import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Env } from '../../../src/env';
import { appFetch, ledgerSql } from '../helpers';
import { channels, newOrg, type Org } from '../channel-helpers';

// Shared set-up of the public form tests (src/modules/form/public): an organisation with an email sender and
// subscriptions, a form written straight into D1 (the form API is another module's), posts as a browser sends them,
// and what the tests read back (contacts, consents, member rows, the messages in the organisation's ledger).

export interface FormSetup {
  o: Org;
  host: string;
  formId: number;
  key: string;
  subscriptions: { id: number; name: string }[];
  senderId: number;
}

let counter = 0;
/** A fresh visitor address (limits count per IP; a file's tests share the database). */
export const newIp = () => `198.51.${Math.floor(++counter / 250)}.${counter % 250}`;
export const newEmail = (prefix = 'visitor') => `${prefix}${++counter}x${Math.floor(Math.random() * 1e6)}@example.test`;

export async function insertSubscription(orgId: number, name: string): Promise<number> {
  const row = await env.DB.prepare('INSERT INTO subscriptions (org_id, name) VALUES (?, ?) RETURNING id').bind(orgId, name).first<{ id: number }>();
  return row!.id;
}

export interface FormOptions {
  name?: string;
  fields?: unknown[];
  doubleOptIn?: boolean;
  subscriptions?: number;
  successMessage?: string | null;
  redirectUrl?: string | null;
  allowedOrigins?: string[];
  enabled?: boolean;
  templateId?: number | null;
}

export async function insertForm(orgId: number, subscriptionIds: number[], options: FormOptions = {}): Promise<{ id: number; key: string }> {
  const key = `k${++counter}${Math.random().toString(36).slice(2, 12)}`;
  const row = await env.DB.prepare(
    `INSERT INTO forms (org_id, public_key, name, subscription_ids, fields, double_opt_in, success_message, redirect_url, allowed_origins, template_id, enabled)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      orgId,
      key,
      options.name ?? `Newsletter form ${counter}`,
      JSON.stringify(subscriptionIds),
      JSON.stringify(
        options.fields ?? [
          { kind: 'email', required: true },
          { kind: 'name', required: false },
        ],
      ),
      options.doubleOptIn === false ? 0 : 1,
      options.successMessage ?? null,
      options.redirectUrl ?? null,
      JSON.stringify(options.allowedOrigins ?? []),
      options.templateId ?? null,
      options.enabled === false ? 0 : 1,
    )
    .first<{ id: number }>();
  return { id: row!.id, key };
}

/** An organisation with an email sender, `subscriptions` subscriptions and a form offering them. */
export async function setupForm(options: FormOptions = {}): Promise<FormSetup> {
  const o = await newOrg('pf');
  const { email } = await channels(o);
  const subscriptions: { id: number; name: string }[] = [];
  for (let i = 0; i < (options.subscriptions ?? 1); i++) {
    const name = `News ${i + 1}`;
    subscriptions.push({ id: await insertSubscription(o.orgId, name), name });
  }
  const form = await insertForm(
    o.orgId,
    subscriptions.map((s) => s.id),
    options,
  );
  return { o, host: `${o.org}.localhost:8787`, formId: form.id, key: form.key, subscriptions, senderId: email.id };
}

export interface SendInit {
  method?: string;
  fields?: Record<string, string | string[]>;
  body?: string;
  ip?: string;
  headers?: Record<string, string>;
  env?: Partial<Env>;
}

/** A request to the worker on `host` as a browser sends it (a form post when `fields` or `body` is given). */
export async function send(host: string, path: string, init: SendInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('host', host);
  headers.set('cf-connecting-ip', init.ip ?? newIp());
  if (!headers.has('user-agent')) headers.set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0');
  let body: string | undefined = init.body;
  if (init.fields) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(init.fields)) for (const v of Array.isArray(value) ? value : [value]) params.append(name, v);
    body = params.toString();
  }
  if (body !== undefined) headers.set('content-type', 'application/x-www-form-urlencoded');
  const method = init.method ?? (body !== undefined ? 'POST' : 'GET');
  const res = await appFetch(new Request(`http://${host}${path}`, { method, headers, body, redirect: 'manual' }), { env: init.env });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Posts the hosted form. */
export const signUp = (s: FormSetup, fields: Record<string, string | string[]>, init: Omit<SendInit, 'fields'> = {}) =>
  send(s.host, `/f/${s.key}`, { ...init, fields });

export async function contactOf(orgId: number, email: string) {
  return env.DB.prepare(
    `SELECT c.id, c.name, c.membership FROM contacts c JOIN contact_addresses a ON a.contact_id = c.id AND a.org_id = c.org_id
     WHERE c.org_id = ? AND a.type = 'email' AND a.value = ?`,
  )
    .bind(orgId, email)
    .first<{ id: number; name: string; membership: string }>();
}

export async function consentsOf(contactId: number) {
  const { results } = await env.DB.prepare('SELECT * FROM consents WHERE contact_id = ? ORDER BY id').bind(contactId).all<Record<string, any>>();
  return results;
}

export async function membersOf(contactId: number) {
  const { results } = await env.DB.prepare('SELECT * FROM subscription_members WHERE contact_id = ? ORDER BY subscription_id')
    .bind(contactId)
    .all<Record<string, any>>();
  return results;
}

export interface MessageRow {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  body_plain: string | null;
  status: string;
  sender_id: number;
  contact_id: number | null;
  metadata: string | null;
}

/** The single messages of the organisation's ledger to `to` (all when absent). */
export async function messagesTo(orgId: number, to?: string): Promise<MessageRow[]> {
  const ledger = await ledgerSql(orgId);
  const { results } = to
    ? await ledger.prepare('SELECT * FROM messages WHERE to_address = ? ORDER BY id').bind(to).all<MessageRow>()
    : await ledger.prepare('SELECT * FROM messages ORDER BY id').all<MessageRow>();
  return results;
}

/** The confirmation link in a mail's body. */
export function confirmTokenIn(message: MessageRow): string {
  const match = /\/f\/confirm\?t=([A-Za-z0-9._-]+)/.exec(message.body);
  expect(match, message.body).not.toBeNull();
  return match![1];
}

/** Sets a limit's counter as if it had been hit `count` times in this window (limits.ts keys). */
export async function fillLimit(key: string, count: number) {
  await env.DB.prepare('INSERT OR REPLACE INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)')
    .bind(key, Math.floor(Date.now() / 1000), count)
    .run();
}
