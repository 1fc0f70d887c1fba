import type { Env } from '../../env';
import { openTransport, syncPhoneNumbers, testIntegrationConnection, type TransportEnv, type TransportIntegration } from '../../lib/transport';
import type { Transport } from '../../lib/transport/types';
import { twilioHookUrl } from '../sms-hooks/urls';
import type { IntegrationTestResult, SmtpDetails, TwilioDetails } from '../../shared/contracts/integration';

// The one place the channel modules reach the provider code (src/lib/transport): opening a transport to send,
// testing a connection, listing a Twilio account's numbers. Routes and the send and sync consumers depend only
// on these three functions, and tests pass their own implementations through the consumers' `deps` parameter.

/** An integration with its decrypted secret, as the provider code needs it. */
export type ProviderAccount =
  | { type: 'smtp'; integrationId: number; details: SmtpDetails; password: string }
  | { type: 'twilio'; integrationId: number; details: TwilioDetails; token: string };

export interface Providers {
  /** Opens a transport for one integration (SMTP sessions / Twilio client). */
  openTransport(account: ProviderAccount, env: Env): Promise<Transport>;
  /** Tries the settings end to end (SMTP: connect, encrypt, log in; Twilio: list numbers); answers in plain words. */
  testConnection(account: ProviderAccount, env: Env): Promise<IntegrationTestResult>;
  /** The phone numbers (E.164) of a Twilio account. */
  listPhoneNumbers(account: Extract<ProviderAccount, { type: 'twilio' }>, env: Env): Promise<string[]>;
}

/** SMTP sessions one consumer invocation keeps open per integration (a Worker invocation may hold 6 connections). */
const SMTP_SESSIONS = 3;

/** Raised by a provider function that cannot work in this build; the consumers treat it as permanent. */
export class ProviderUnavailableError extends Error {}

function transportIntegration(account: ProviderAccount): TransportIntegration {
  return account.type === 'smtp'
    ? { type: 'smtp', details: account.details, secret: { password: account.password } }
    : { type: 'twilio', details: account.details, secret: { token: account.token } };
}

/** The optional vars the transports read (TWILIO_API_BASE, DNS_RESOLVER_URL) from the worker's env. */
const transportEnv = (env: Env) => env as unknown as TransportEnv;

/** The real providers: the transport engineer's factory, connection test and Twilio number listing. */
export const providers: Providers = {
  async openTransport(account, env) {
    // Two SMTP sessions: the send consumer works on several batches at once (queues/dispatch.ts); a single
    // message only ever opens the first.
    // Every SMS asks Twilio to report its delivery to the integration's signed callback (src/modules/sms-hooks).
    const twilioStatusCallback = account.type === 'twilio' ? twilioHookUrl(env, account.integrationId, 'status') : null;
    return openTransport(transportIntegration(account), transportEnv(env), { connections: SMTP_SESSIONS, twilioStatusCallback });
  },
  async testConnection(account, env) {
    return testIntegrationConnection(transportIntegration(account), transportEnv(env));
  },
  async listPhoneNumbers(account, env) {
    return (await syncPhoneNumbers(transportIntegration(account), transportEnv(env))).map((n) => n.phone_number);
  },
};
