import type { Integration } from '@shared/contracts/integration';
import type { Sender } from '@shared/contracts/sender';
import type { Template } from '@shared/contracts/template';
import { fakeApi } from './fake-api';
import { json, mockFetch, type FetchCall } from './helpers';

const NOW = '2026-11-01T10:00:00.000Z';

export const SMTP: Integration = {
  id: 1,
  name: 'Office mail',
  type: 'smtp',
  status: 'active',
  note: null,
  should_merge: true,
  max_rate: null,
  dkim_signing: true,
  priority: 1,
  details: { server: 'smtp.example.com', port: 587, ssl: false, tls: true, domain: null, return_path: null, sendgrid_verification_key: null, user: 'mailer' },
  webhook_url: 'http://localhost:8787/api/v1/hooks/sendgrid/1/events',
  last_sync: null,
  created_at: NOW,
  updated_at: NOW,
};

export const HTML_TEMPLATE: Template = {
  id: 5,
  type: 'html',
  name: 'Welcome',
  alias: null,
  note: null,
  subject: null,
  body: '<p>Hello {{ contact.name }}</p>',
  body_plain: null,
  attachments: [],
  created_at: NOW,
  updated_at: NOW,
};

const sender = (id: number, type: Sender['type'], value: string, name: string | null): Sender => ({
  id,
  integration_id: type === 'email' ? 1 : 2,
  integration: null,
  type,
  value,
  name,
  note: null,
  priority: id,
  domain_state: type === 'email' ? 'unverified' : 'unknown',
  created_at: NOW,
  updated_at: NOW,
});

export const SENDERS: Sender[] = [sender(10, 'email', 'news@acme.test', 'News'), sender(11, 'phone', '+15005550006', null)];

export const TWILIO: Integration = { ...SMTP, id: 2, name: 'Phones', type: 'twilio', priority: 2, details: { sid: 'AC0123456789abcdef0123456789abcdef' } };

const list = <T>(items: T[]) => json(200, { items, meta: { total: items.length, page: 1, page_size: 100, total_pages: items.length ? 1 : 0 } });

/**
 * The shell's fake API plus a small in-memory /integration and /template: enough for the channel screens.
 * `hold` delays answers of matching calls until released (to look at the screen in between).
 */
export function fakeChannelsApi(
  options: { integrations?: Integration[]; templates?: Template[]; senders?: Sender[]; campaignAnswer?: (body: unknown) => Response } = {},
) {
  const base = fakeApi();
  const integrations = (options.integrations ?? [SMTP, TWILIO]).map((i) => ({ ...i }));
  const templates = (options.templates ?? []).map((t) => ({ ...t }));
  const senders = options.senders ?? [];
  let nextId = 100;
  const holds: { match: (call: FetchCall) => boolean; gate: Promise<void> }[] = [];

  const handle = (call: FetchCall): Response | null => {
    const path = new URL(call.url, 'http://acme.localhost').pathname.replace('/api/v1', '');
    if (call.headers.authorization !== 'Bearer acc') return null;
    if (path === '/integration' && call.method === 'GET') return list(integrations);
    const sync = /^\/integration\/(\d+)\/sync$/.exec(path);
    if (sync && call.method === 'POST') {
      const found = integrations.find((i) => i.id === Number(sync[1]))!;
      found.status = 'merging';
      return json(202, { data: found });
    }
    const integration = /^\/integration\/(\d+)$/.exec(path);
    if (integration) {
      const found = integrations.find((i) => i.id === Number(integration[1]));
      if (!found) return json(404, { error: { code: 'not_found', message: 'Not found' } });
      if (call.method === 'PUT') Object.assign(found, call.body as object);
      if (call.method === 'GET' || call.method === 'PUT') return json(200, { data: found });
    }
    if (path.startsWith('/dictionary/')) return json(404, { error: { code: 'not_found', message: 'Not found' } });
    if (path === '/template' && call.method === 'POST') {
      const template = { id: nextId++, attachments: [], created_at: NOW, updated_at: NOW, ...(call.body as object) } as unknown as Template;
      templates.push(template);
      return json(201, { data: template });
    }
    const one = /^\/template\/(\d+)$/.exec(path);
    if (one && call.method === 'GET') {
      const found = templates.find((t) => t.id === Number(one[1]));
      return found ? json(200, { data: found }) : json(404, { error: { code: 'not_found', message: 'Not found' } });
    }
    if (path === '/template' && call.method === 'GET') return list(templates);
    if (path === '/sender' && call.method === 'GET') return list(senders);
    if (path === '/campaign' && call.method === 'POST')
      return options.campaignAnswer?.(call.body) ?? json(201, { data: { id: nextId++, ...(call.body as object) } });
    return null;
  };

  const mock = mockFetch(async (call) => {
    for (const hold of holds) if (hold.match(call)) await hold.gate;
    return (
      handle(call) ?? base.fn(call.url, { method: call.method, headers: call.headers, body: call.body === undefined ? undefined : JSON.stringify(call.body) })
    );
  });

  /** Holds matching calls until the returned function is called. */
  const hold = (match: (call: FetchCall) => boolean) => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const entry = { match, gate };
    holds.push(entry);
    return () => {
      holds.splice(holds.indexOf(entry), 1);
      release();
    };
  };

  return { ...mock, integrations, templates, hold };
}
