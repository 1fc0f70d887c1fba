import { env, exports } from 'cloudflare:workers';
import { buildApp } from '../../src/app';
import type { Env } from '../../src/env';
import { hashPassword } from '../../src/lib/password';
import { createDb, type Database } from '../../src/db/client';
import { ledgerBinding, ledgerDb } from '../../src/modules/ledger/ledger-db';
import { broadcastLedger, ledgerOfMessage as findLedgerOfMessage, orgLedger } from '../../src/modules/ledger/registry';
import { blockOf } from '../../src/modules/ledger/ids';

export const PASSWORD = 'Secret-123';

/** Creates an organisation with one user; returns their ids. */
export async function createOrg(domain: string, username = `owner@${domain}.test`) {
  const org = await env.DB.prepare('INSERT INTO organizations (name, domain) VALUES (?, ?) RETURNING id').bind(`${domain} Inc`, domain).first<{ id: number }>();
  const user = await env.DB.prepare('INSERT INTO users (org_id, name, username, email, password_hash) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .bind(org!.id, `${domain} owner`, username, username, await hashPassword(PASSWORD))
    .first<{ id: number }>();
  return { orgId: org!.id, userId: user!.id, username, domain };
}

/** Adds another user to an organisation; `password: null` makes a social-only user. */
export async function addUser(orgId: number, username: string, password: string | null = PASSWORD): Promise<number> {
  const row = await env.DB.prepare('INSERT INTO users (org_id, name, username, email, password_hash) VALUES (?, ?, ?, ?, ?) RETURNING id')
    .bind(orgId, `${username} name`, username, username.includes('@') ? username : null, password ? await hashPassword(password) : null)
    .first<{ id: number }>();
  return row!.id;
}

export type CallInit = RequestInit & { json?: unknown; token?: string };

/** A request to the worker on `host` (e.g. `acme.localhost:8787`); `json` becomes the body, `token` the bearer. */
export function callHost(host: string, path: string, init: CallInit = {}) {
  const { json, token, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('host', host);
  if (token) headers.set('authorization', `Bearer ${token}`);
  let body = rest.body;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(json);
  }
  return exports.default.fetch(new Request(`http://${host}${path}`, { ...rest, headers, body }));
}

/** A request to the worker as a browser on `{org}.localhost` would send it. */
export function call(org: string, path: string, init: CallInit = {}) {
  return callHost(`${org}.localhost:8787`, path, init);
}

/**
 * Runs the app directly with an execution context of our own, so a test can change env vars for one request;
 * with `settle` it also waits for the work the request left to waitUntil (e.g. a mail) before answering.
 */
export async function appFetch(req: Request, options: { env?: Partial<Env>; settle?: boolean } = {}): Promise<Response> {
  const background: Promise<unknown>[] = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void background.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  const res = await buildApp().fetch(req, { ...env, ...options.env }, ctx);
  if (options.settle) await Promise.all(background);
  return res;
}

export interface MailRow {
  id: number;
  org_id: number | null;
  to_address: string;
  subject: string;
  text: string | null;
  html: string | null;
  status: string;
}

/** The system mails sent to an address, oldest first. */
export async function mailsTo(address: string): Promise<MailRow[]> {
  const { results } = await env.DB.prepare('SELECT * FROM system_mails WHERE to_address = ? ORDER BY id').bind(address).all<MailRow>();
  return results;
}

/** The text of the newest system mail to an address, or null. */
export async function latestMail(to: string): Promise<string | null> {
  return (await mailsTo(to)).at(-1)?.text ?? null;
}

/** How many system mails went to an address. */
export async function mailCount(to: string): Promise<number> {
  return (await mailsTo(to)).length;
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

/**
 * The organisation's ledger (src/modules/ledger), where its messages, tracking events and started broadcasts' status
 * and counters are: `d1` reads and writes it as a D1 binding (prepare, bind, first, all), `db` with drizzle.
 */
export async function ledgerOf(orgId: number): Promise<{ d1: D1Database; db: Database }> {
  const handle = await orgLedger(env, createDb(env.DB), orgId);
  if (!handle) throw new Error(`organisation ${orgId} has no ledger (it does not exist)`);
  return { d1: ledgerBinding(handle), db: ledgerDb(handle) };
}

/** The ledger's D1-like binding of the organisation (ledgerOf). */
export const ledgerSql = async (orgId: number) => (await ledgerOf(orgId)).d1;

/** The ledger a message id was made in (its block, src/modules/ledger/ids.ts), as a D1-like binding. */
export async function ledgerOfMessage(id: number): Promise<D1Database> {
  const registered = await env.DB.prepare('SELECT org_id FROM ledgers WHERE id_base = ?').bind(blockOf(id)).first<{ org_id: number }>();
  if (!registered) throw new Error(`message ${id} is in no ledger's block`);
  const handle = await findLedgerOfMessage(env, createDb(env.DB), registered.org_id, id);
  if (!handle) throw new Error(`message ${id}'s ledger is not ready`);
  return ledgerBinding(handle);
}

/** The ledger a broadcast lives in (its generation once started), as a D1-like binding: its messages and its state. */
export async function ledgerOfBroadcast(broadcastId: number): Promise<D1Database> {
  const b = await env.DB.prepare('SELECT org_id, started_at, ledger_generation FROM broadcasts WHERE id = ?')
    .bind(broadcastId)
    .first<{ org_id: number; started_at: string | null; ledger_generation: number | null }>();
  if (!b) throw new Error(`no broadcast ${broadcastId}`);
  const handle = await broadcastLedger(env, createDb(env.DB), { orgId: b.org_id, startedAt: b.started_at, ledgerGeneration: b.ledger_generation });
  if (!handle) throw new Error(`broadcast ${broadcastId}'s ledger is not ready`);
  return ledgerBinding(handle);
}
