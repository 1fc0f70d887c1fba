import { domainOf } from '../../lib/mime/message-id';
import type { SmtpTransportOptions } from '../../lib/smtp/transport';
import type { Env } from '../../env';

// How the platform reaches its own SMTP server: SYSTEM_SMTP_URL (smtp://user:pass@host:port, smtps:// for
// implicit TLS, ?starttls=1 to upgrade a plain connection) and the From of SYSTEM_MAIL_FROM.

export const DEFAULT_SYSTEM_FROM = 'Relay <no-reply@localhost>';

/** Thrown when SYSTEM_SMTP_URL is set but cannot be used: a configuration error, never retried. */
export class SystemSmtpConfigError extends Error {}

/** Connection options from SYSTEM_SMTP_URL; null when it is not configured. */
export function systemSmtpOptions(env: Pick<Env, 'SYSTEM_SMTP_URL' | 'SYSTEM_MAIL_FROM' | 'DNS_RESOLVER_URL'>): SmtpTransportOptions | null {
  const raw = env.SYSTEM_SMTP_URL?.trim();
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SystemSmtpConfigError('SYSTEM_SMTP_URL is not a valid URL (smtp://user:pass@host:port)');
  }
  const implicitTls = url.protocol === 'smtps:';
  if (!implicitTls && url.protocol !== 'smtp:') throw new SystemSmtpConfigError('SYSTEM_SMTP_URL must start with smtp:// or smtps://');
  const starttls = !implicitTls && ['1', 'true', 'yes'].includes((url.searchParams.get('starttls') ?? '').toLowerCase());
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!host) throw new SystemSmtpConfigError('SYSTEM_SMTP_URL has no host');
  const port = url.port ? Number(url.port) : implicitTls ? 465 : starttls ? 587 : 25;
  const user = decodeURIComponent(url.username);
  return {
    host,
    port,
    security: implicitTls ? 'ssl' : starttls ? 'starttls' : 'none',
    clientName: domainOf(systemFrom(env).address) || 'localhost',
    auth: user ? { user, password: decodeURIComponent(url.password) } : null,
    dnsResolverUrl: env.DNS_RESOLVER_URL,
  };
}

/** The From of system mail: `Name <address>` or a bare address from SYSTEM_MAIL_FROM. */
export function systemFrom(env: Pick<Env, 'SYSTEM_MAIL_FROM'>): { address: string; name: string | null } {
  const value = env.SYSTEM_MAIL_FROM?.trim() || DEFAULT_SYSTEM_FROM;
  const match = /^(.*)<([^<>]+)>\s*$/.exec(value);
  if (!match) return { address: value, name: null };
  const name = match[1].trim().replace(/^"(.*)"$/, '$1');
  return { address: match[2].trim(), name: name || null };
}
