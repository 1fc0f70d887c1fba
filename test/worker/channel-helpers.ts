import { env } from 'cloudflare:workers';
import { expect } from 'vitest';
import type { Transport, OutgoingMessage, SendResult } from '../../src/lib/transport/types';
import type { Providers } from '../../src/modules/integration/providers';
import { call, createOrg, ledgerOfMessage, signIn } from './helpers';

// Shared set-up of the channel tests: an organisation with a signed-in user, JSON calls, and the example
// integrations, senders and contacts they need. Contacts are written straight into D1 (the contact API is
// another module's); everything else goes through the API under test.

export interface Org {
  org: string;
  orgId: number;
  token: string;
  /** JSON request as the signed-in user; returns status and parsed body. */
  api: <T = any>(method: string, path: string, json?: unknown) => Promise<{ status: number; body: T; text: string }>;
}

let counter = 0;

/** A fresh organisation (storage is shared by the tests of a file) with a signed-in user. */
export async function newOrg(prefix = 'ch'): Promise<Org> {
  const org = `${prefix}${++counter}x${Math.floor(Math.random() * 1e6)}`;
  const { orgId, username } = await createOrg(org);
  const token = (await signIn(org, username)).access_token;
  const api = async (method: string, path: string, json?: unknown) => {
    const res = await call(org, `/api/v1${path}`, { method, token, ...(json === undefined ? {} : { json }) });
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: res.status, body, text };
  };
  return { org, orgId, token, api };
}

export const SMTP_INPUT = {
  name: 'Main SMTP',
  type: 'smtp',
  details: { server: '127.0.0.1', port: 2525, ssl: false, tls: false },
  user: 'mailer@acme.test',
  password: 'smtp-password-Zq8!',
};

export const TWILIO_INPUT = {
  name: 'Twilio',
  type: 'twilio',
  sid: 'AC0123456789abcdef0123456789abcdef',
  token: 'twilio-token-Kx7#',
};

/** Creates an integration through the API and returns it. */
export async function createIntegration(o: Org, input: Record<string, unknown> = SMTP_INPUT) {
  const res = await o.api('POST', '/integration', input);
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; type: string; status: string; details: Record<string, unknown> };
}

/** Creates a sender through the API and returns it. */
export async function createSender(o: Org, input: Record<string, unknown>) {
  const res = await o.api('POST', '/sender', input);
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; type: string; value: string; name: string | null };
}

/** An smtp integration with an email sender, and a twilio integration with a phone sender. */
export async function channels(o: Org) {
  const smtp = await createIntegration(o, SMTP_INPUT);
  const twilio = await createIntegration(o, TWILIO_INPUT);
  const email = await createSender(o, { integration_id: smtp.id, type: 'email', value: 'hello@acme.test', name: 'Acme' });
  const phone = await createSender(o, { integration_id: twilio.id, type: 'phone', value: '+15005550006' });
  return { smtp, twilio, email, phone };
}

/** Creates a template through the API and returns it. */
export async function createTemplate(o: Org, input: Record<string, unknown>) {
  const res = await o.api('POST', '/template', input);
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; type: string; name: string; attachments: unknown[] };
}

/** Inserts a contact with addresses directly in D1 (the contact API belongs to another module). */
export async function insertContact(orgId: number, name: string, addresses: { type: string; value: string }[] = [], note: string | null = null) {
  const contact = await env.DB.prepare('INSERT INTO contacts (org_id, name, note) VALUES (?, ?, ?) RETURNING id')
    .bind(orgId, name, note)
    .first<{ id: number }>();
  let position = 0;
  for (const a of addresses) {
    await env.DB.prepare('INSERT INTO contact_addresses (org_id, contact_id, type, value, position) VALUES (?, ?, ?, ?, ?)')
      .bind(orgId, contact!.id, a.type, a.value, position++)
      .run();
  }
  return contact!.id;
}

/** Inserts a custom field (with options for select/multiselect); returns its id and option ids by value. */
export async function insertField(orgId: number, alias: string, type: string, options: string[] = []) {
  const field = await env.DB.prepare('INSERT INTO fields (org_id, name, alias, type) VALUES (?, ?, ?, ?) RETURNING id')
    .bind(orgId, alias, alias, type)
    .first<{ id: number }>();
  const optionIds: Record<string, number> = {};
  let position = 0;
  for (const value of options) {
    const row = await env.DB.prepare('INSERT INTO field_options (org_id, field_id, value, position) VALUES (?, ?, ?, ?) RETURNING id')
      .bind(orgId, field!.id, value, position++)
      .first<{ id: number }>();
    optionIds[value] = row!.id;
  }
  return { id: field!.id, optionIds };
}

/** Inserts one attribute value row. */
export async function insertAttribute(orgId: number, contactId: number, fieldId: number, value: { text?: string; number?: number; optionId?: number }) {
  await env.DB.prepare('INSERT INTO contact_attributes (org_id, contact_id, field_id, value_text, value_number, option_id) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(orgId, contactId, fieldId, value.text ?? null, value.number ?? null, value.optionId ?? null)
    .run();
}

/** A transport that records what it is asked to send and answers with the given results in turn. */
export function recordingProviders(results: (SendResult | Error)[] = [{ ok: true, externalId: '<ext-1@test>' }]) {
  const sent: OutgoingMessage[] = [];
  const opened: { type: string; integrationId: number; secret: string }[] = [];
  let next = 0;
  const providers: Pick<Providers, 'openTransport'> = {
    async openTransport(account) {
      opened.push({ type: account.type, integrationId: account.integrationId, secret: account.type === 'smtp' ? account.password : account.token });
      const transport: Transport = {
        async send(message) {
          sent.push(message);
          const result = results[Math.min(next++, results.length - 1)];
          if (result instanceof Error) throw result;
          return result;
        },
        // One at a time, telling the consumer of each accepted message as a real provider's transport does.
        async sendMany(messages, onAccepted) {
          const out: SendResult[] = [];
          for (const [i, m] of messages.entries()) {
            const result = await transport.send(m);
            out.push(result);
            if (result.ok) await onAccepted?.(i, result);
          }
          return out;
        },
        async close() {},
      };
      return transport;
    },
  };
  return { providers, sent, opened };
}

/** One row of a table by id, straight from D1 (a message: from the ledger whose block its id is in). */
export async function row<T = Record<string, unknown>>(table: string, id: number) {
  const db = table === 'messages' ? await ledgerOfMessage(id) : env.DB;
  return db.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first<T>();
}
