// Helpers of the webhook delivery tests: an endpoint in D1 and its ledgers' mirror, events in the stream, the real
// loopback receiver's record (test/support/webhook-receiver.mjs), and waiting for the engine.
import { env } from 'cloudflare:workers';
import { createDb } from '../../../src/db/client';
import { webhookEndpoints } from '../../../src/db/schema';
import { mirrorEndpoint } from '../../../src/modules/webhook/mirror';
import { newEndpointSecret, sealEndpointHeaders, sealEndpointSecret } from '../../../src/modules/webhook/secrets';
import { ledgerSql } from '../helpers';

export const RECEIVER = env.WEBHOOK_RECEIVER_URL;
let counter = 0;

export interface ReceivedRequest {
  method: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export const uniquePath = (name: string) => `/hooks/${name}-${++counter}-${Math.floor(Math.random() * 1e9)}`;

export async function received(path: string): Promise<ReceivedRequest[]> {
  return (await fetch(`${RECEIVER}/_control/requests?path=${encodeURIComponent(path)}`)).json();
}

export async function script(path: string, answers: { status: number; delayMs?: number; location?: string }[]): Promise<void> {
  await fetch(`${RECEIVER}/_control/script`, { method: 'POST', body: JSON.stringify({ path, answers }) });
}

export async function setDns(name: string, type: 'A' | 'AAAA', data: string[]): Promise<void> {
  await fetch(`${RECEIVER}/_control/dns`, { method: 'POST', body: JSON.stringify({ name, type, data }) });
}

export interface EndpointOptions {
  url?: string;
  eventTypes?: string[];
  batch?: boolean;
  headers?: Record<string, string>;
  previousSecret?: string;
  previousSecretUntil?: string;
}

/** An endpoint of the organisation on the receiver at `path` (D1 row and mirror); answers its row id and secret. */
export async function addEndpoint(orgId: number, path: string, options: EndpointOptions = {}) {
  const secret = newEndpointSecret();
  const db = createDb(env.DB);
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      orgId,
      url: options.url ?? `${RECEIVER}${path}`,
      eventTypes: options.eventTypes ?? ['*'],
      batch: options.batch ?? false,
      headers: await sealEndpointHeaders(env, options.headers),
      secret: await sealEndpointSecret(env, secret),
      previousSecret: options.previousSecret ? await sealEndpointSecret(env, options.previousSecret) : null,
      previousSecretUntil: options.previousSecretUntil ?? null,
    })
    .returning();
  await mirrorEndpoint(env, db, orgId, { id: row.id, eventTypes: row.eventTypes, enabled: true, batch: row.batch, since: row.createdAt });
  return { id: row.id, secret, row };
}

/** Records an event in the organisation's stream (as a ledger trigger would); answers its id. */
export async function addEvent(orgId: number, type = 'message.sent', data: Record<string, unknown> = { n: 1 }): Promise<string> {
  const id = `evt_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  const ledger = await ledgerSql(orgId);
  await ledger
    .prepare("INSERT INTO events (id, type, at, data) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?)")
    .bind(id, type, JSON.stringify(data))
    .run();
  return id;
}

export interface DeliveryState {
  event_id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_at: number;
}

export async function deliveriesOf(orgId: number, endpointId: number): Promise<DeliveryState[]> {
  const ledger = await ledgerSql(orgId);
  const { results } = await ledger
    .prepare(
      `SELECT e.id AS event_id, d.state, d.attempts, d.last_status, d.last_error, d.next_at FROM webhook_deliveries d JOIN events e ON e.seq = d.event_seq
       WHERE d.endpoint_id = ? ORDER BY d.event_seq`,
    )
    .bind(endpointId)
    .all<DeliveryState>();
  return results;
}

/** Polls `check` until it answers a value that is not undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | false>, timeoutMs = 10_000, what = 'the condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for `count` requests at the path. */
export const receivedAtLeast = (path: string, count: number, timeoutMs = 10_000) =>
  waitFor(
    async () => {
      const list = await received(path);
      return list.length >= count ? list : undefined;
    },
    timeoutMs,
    `${count} request(s) at ${path}`,
  );
