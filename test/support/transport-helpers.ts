// Shared pieces of the transport tests (run in workerd): the servers the global setup started, reading back what
// they received, and parsing it with postal-mime.
import PostalMime, { type Email } from 'postal-mime';
import { inject } from 'vitest';
import type { SmtpConnectOptions } from '../../src/lib/smtp/connection';
import type { OutgoingMessage } from '../../src/lib/transport/types';
import type { ReceivedMail, TransportServers } from './transport-context';

/**
 * The servers of test/support/transport-servers.ts; undefined when these files run under another config
 * (the suites then skip: run them with `npm run test:transport`).
 */
export const servers = inject('transport') as TransportServers | undefined;
export const S = servers as TransportServers;
export const NOT_SET_UP = !servers;

/** Short timeouts so failure cases end quickly. */
export const FAST = { connect: 3000, greeting: 1500, command: 3000, data: 1500, quit: 1000 };

let counter = 0;
/** A recipient address no other test uses (the control endpoint finds mail by recipient). */
export function uniqueAddress(prefix = 'rcpt'): string {
  return `${prefix}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** What the SMTP servers received for a recipient (or from one server). */
export async function received(query: { to?: string; server?: string }): Promise<ReceivedMail[]> {
  const params = new URLSearchParams(query as Record<string, string>);
  const res = await fetch(`${S.control}/mail?${params}`);
  return (await res.json()) as ReceivedMail[];
}

export async function stats(server: string): Promise<{ connections: number; violations: number; quits: number }> {
  return (await fetch(`${S.control}/stats?server=${server}`)).json();
}

export function parse(raw: string): Promise<Email> {
  return PostalMime.parse(raw);
}

/** The header block of a raw message, unfolded, as [lowercased name, value] pairs. */
export function rawHeaders(raw: string): [string, string][] {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
  return head
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as [string, string];
    });
}

/** Connection options for one of the smtp-server instances. */
export function smtpOptions(server: keyof TransportServers['smtp'], extra: Partial<SmtpConnectOptions> = {}): SmtpConnectOptions {
  const tls = server === 'ssl' || server === 'sslUntrusted' ? 'ssl' : server === 'starttls' || server === 'starttlsUntrusted' ? 'starttls' : 'none';
  return {
    host: '127.0.0.1',
    port: S.smtp[server],
    security: tls,
    clientName: 'mailer.relay.test',
    auth: server === 'open' ? null : { user: S.smtpUser, password: S.smtpPassword },
    timeouts: FAST,
    dnsResolverUrl: `${S.control}/dns-query`,
    ...extra,
  };
}

let nextId = 1000;
/** An outgoing email with sensible defaults. */
export function email(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    id: ++nextId,
    from: { address: 'news@acme.test', name: 'Acme News' },
    to: uniqueAddress(),
    subject: 'Hello',
    body: '<p>Hello <b>there</b></p>',
    html: true,
    ...overrides,
  };
}
