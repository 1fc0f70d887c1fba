// The one entry point the sending engine uses: an integration row (type, details, decrypted secret) in, a
// Transport out, whatever the channel. Also the integration-level "test connection" and phone-number sync.
import { z } from 'zod';
import { domainOf } from '../mime/message-id';
import type { SmtpSecurity, SmtpTimeouts } from '../smtp/connection';
import { testSmtpConnection, type ConnectionTestResult } from '../smtp/test-connection';
import { SmtpTransport, type SmtpTransportOptions } from '../smtp/transport';
import { TwilioTransport } from '../sms/transport';
import { listIncomingPhoneNumbers, TwilioError, type IncomingPhoneNumber, type TwilioAccount } from '../sms/twilio';
import type { OutgoingMessage, SendResult, Transport } from './types';

/** The integration as stored: `details` from the row, `secret` already decrypted ({ password } or { token }). */
export interface TransportIntegration {
  type: 'smtp' | 'twilio' | (string & {});
  details: unknown;
  secret: { password?: string | null; token?: string | null } | null;
}

/** Vars the transports read; both optional. */
export interface TransportEnv {
  /** Twilio API root; default https://api.twilio.com. Locally: the SMS catcher, http://127.0.0.1:8026. */
  TWILIO_API_BASE?: string;
  /** DNS-over-HTTPS JSON endpoint used to explain failed SMTP connections; default Cloudflare's. */
  DNS_RESOLVER_URL?: string;
}

export interface TransportOptions {
  /** SMTP sessions used in parallel by sendMany (1 to 6; default 1). */
  connections?: number;
  timeouts?: Partial<SmtpTimeouts>;
  /** Per Twilio request (default 15 s). */
  twilioTimeoutMs?: number;
  /** The StatusCallback URL Twilio reports deliveries to (the integration's own). */
  twilioStatusCallback?: string | null;
}

/** The integration's settings are unusable (missing server, bad port, no token...): nothing can be sent. */
export class TransportConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TransportConfigError';
  }
}

const flag = z.unknown().transform((v) => v === true || v === 1 || v === 'true' || v === '1');
const optionalText = z
  .string()
  .nullish()
  .transform((v) => v?.trim() || null);

const smtpDetails = z.object({
  server: z.string().trim().min(1, 'server is required'),
  port: z.coerce.number().int('port must be a whole number').min(1, 'port must be 1 to 65535').max(65535, 'port must be 1 to 65535'),
  ssl: flag.optional(),
  tls: flag.optional(),
  domain: optionalText,
  return_path: optionalText,
  user: optionalText,
});

const twilioDetails = z.object({ sid: z.string().trim().min(1, 'sid is required') });

function detailsOf(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

function parse<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
  const result = schema.safeParse(detailsOf(raw) ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  throw new TransportConfigError(`The ${what} integration settings are incomplete: ${problems.join('; ')}.`);
}

/** SMTP connection settings from an integration; throws TransportConfigError when they cannot work. */
export function smtpOptionsOf(integration: TransportIntegration, env: TransportEnv = {}, options: TransportOptions = {}): SmtpTransportOptions {
  const d = parse(smtpDetails, integration.details, 'SMTP');
  const security: SmtpSecurity = d.ssl ? 'ssl' : d.tls ? 'starttls' : 'none';
  // EHLO names us with the integration's domain; without one, the domain of the return path or the login.
  const clientName = d.domain || domainOf(d.return_path ?? '') || domainOf(d.user ?? '') || 'localhost';
  return {
    host: d.server,
    port: d.port,
    security,
    clientName,
    auth: d.user ? { user: d.user, password: integration.secret?.password ?? '' } : null,
    returnPath: d.return_path,
    timeouts: options.timeouts,
    connections: options.connections,
    dnsResolverUrl: env.DNS_RESOLVER_URL,
  };
}

/** Twilio account settings from an integration; throws TransportConfigError when they cannot work. */
export function twilioAccountOf(integration: TransportIntegration, env: TransportEnv = {}, options: TransportOptions = {}): TwilioAccount {
  const d = parse(twilioDetails, integration.details, 'Twilio');
  const token = integration.secret?.token?.trim();
  if (!token) throw new TransportConfigError('The Twilio integration has no auth token.');
  return { sid: d.sid, token, apiBase: env.TWILIO_API_BASE || null, timeoutMs: options.twilioTimeoutMs, statusCallback: options.twilioStatusCallback ?? null };
}

/** Every send fails the same permanent way: for integrations whose settings cannot work. */
class BrokenTransport implements Transport {
  constructor(private reason: string) {}
  async send(_message: OutgoingMessage): Promise<SendResult> {
    return { ok: false, retryable: false, error: this.reason };
  }
  async sendMany(messages: OutgoingMessage[]): Promise<SendResult[]> {
    return messages.map(() => ({ ok: false, retryable: false, error: this.reason }));
  }
  async close(): Promise<void> {}
}

/**
 * The transport for an integration: SMTP (kept-open sessions, pipelined) or Twilio. Never throws: settings that
 * cannot work give a transport whose every send fails permanently with the reason. Close it when done.
 */
export function openTransport(integration: TransportIntegration, env: TransportEnv = {}, options: TransportOptions = {}): Transport {
  try {
    if (integration.type === 'smtp') return new SmtpTransport(smtpOptionsOf(integration, env, options));
    if (integration.type === 'twilio') return new TwilioTransport(twilioAccountOf(integration, env, options));
    return new BrokenTransport(`Unknown integration type "${integration.type}".`);
  } catch (error) {
    return new BrokenTransport(error instanceof Error ? error.message : String(error));
  }
}

/**
 * "Test connection" for an integration: SMTP connects, encrypts and logs in; Twilio lists one page of phone numbers
 * with the credentials. Reports { ok, code, message, server_reply }; never throws.
 */
export async function testIntegrationConnection(
  integration: TransportIntegration,
  env: TransportEnv = {},
  options: TransportOptions = {},
): Promise<ConnectionTestResult> {
  try {
    if (integration.type === 'smtp') return await testSmtpConnection(smtpOptionsOf(integration, env, options));
    if (integration.type === 'twilio') {
      const account = twilioAccountOf(integration, env, options);
      const numbers = await listIncomingPhoneNumbers(account.sid, account.token, {
        apiBase: account.apiBase,
        timeoutMs: account.timeoutMs,
        firstPageOnly: true,
      });
      return {
        ok: true,
        code: 'ok',
        message: `Twilio accepted the credentials; phone numbers of the account were listed (${numbers.length} on the first page).`,
        server_reply: null,
      };
    }
    return { ok: false, code: 'invalid_config', message: `Unknown integration type "${integration.type}".`, server_reply: null };
  } catch (error) {
    if (error instanceof TransportConfigError) return { ok: false, code: 'invalid_config', message: error.message, server_reply: null };
    if (error instanceof TwilioError) {
      const code =
        error.status === 401 || error.status === 403 ? 'auth_failed' : error.status === 0 ? (error.retryable ? 'unreachable' : 'invalid_config') : 'rejected';
      return {
        ok: false,
        code,
        message: error.message,
        server_reply: error.status ? `HTTP ${error.status}${error.code ? ` (code ${error.code})` : ''}` : null,
      };
    }
    return { ok: false, code: 'protocol', message: String(error), server_reply: null };
  }
}

/** The phone numbers of a Twilio integration, for the integration sync (every page). Throws TwilioError. */
export function syncPhoneNumbers(integration: TransportIntegration, env: TransportEnv = {}, options: TransportOptions = {}): Promise<IncomingPhoneNumber[]> {
  const account = twilioAccountOf(integration, env, options);
  return listIncomingPhoneNumbers(account.sid, account.token, { apiBase: account.apiBase, timeoutMs: account.timeoutMs });
}
