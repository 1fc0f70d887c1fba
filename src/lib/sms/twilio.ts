// Twilio's REST API (2010-04-01) over fetch: send one SMS, list the account's phone numbers. The API base is
// configurable (TWILIO_API_BASE) so local runs and tests talk to a local server instead of api.twilio.com.
import type { SendResult } from '../transport/types';

export const DEFAULT_TWILIO_API_BASE = 'https://api.twilio.com';
const ACCOUNT_SID = /^AC[0-9a-fA-F]{32}$/;
/** Twilio's "Too Many Requests" error code; it may come with other HTTP statuses than 429. */
const TOO_MANY_REQUESTS = 20429;

export interface TwilioAccount {
  sid: string;
  token: string;
  /** e.g. https://api.twilio.com (default) or http://127.0.0.1:8026 for the local catcher. */
  apiBase?: string | null;
  /** Per request; a timeout is retryable. */
  timeoutMs?: number;
  /** Where Twilio reports each SMS's delivery (StatusCallback); none when null. */
  statusCallback?: string | null;
}

export interface IncomingPhoneNumber {
  sid: string;
  phone_number: string;
  friendly_name: string | null;
  capabilities: { sms?: boolean; mms?: boolean; voice?: boolean; fax?: boolean } | null;
}

/** A failed Twilio call: HTTP status (0 when there was no answer), Twilio's code and message, and whether to retry. */
export class TwilioError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: number | null,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'TwilioError';
  }
}

/** True for a well-formed account SID ("AC" and 32 hex digits). */
export const isAccountSid = (sid: string) => ACCOUNT_SID.test(sid);

/** The account's API root: {base}/2010-04-01/Accounts/{sid} (a base may carry a path prefix). */
function accountUrl(account: TwilioAccount): string {
  const base = (account.apiBase || DEFAULT_TWILIO_API_BASE).replace(/\/+$/, '');
  return `${base}/2010-04-01/Accounts/${encodeURIComponent(account.sid)}`;
}

function authorization(account: TwilioAccount): string {
  return `Basic ${btoa(`${account.sid}:${account.token}`)}`;
}

function checkAccount(account: TwilioAccount): void {
  if (!isAccountSid(account.sid)) {
    throw new TwilioError(`The account SID "${account.sid}" is not valid: it starts with AC followed by 32 hexadecimal characters.`, 0, null, false);
  }
  if (!account.token) throw new TwilioError('The auth token is empty.', 0, null, false);
}

/** One call to Twilio; a network failure or timeout becomes a retryable TwilioError. */
async function call(account: TwilioAccount, url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const timeoutMs = account.timeoutMs ?? 15_000;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: authorization(account), accept: 'application/json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new TwilioError(
      timedOut ? `Twilio did not answer within ${Math.round(timeoutMs / 1000)} s.` : `Could not reach Twilio: ${String(error)}`,
      0,
      null,
      true,
    );
  }
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = { message: text.slice(0, 300) };
  }
  return { status: res.status, body };
}

/** Turns a non-2xx answer into a TwilioError: 429, code 20429 and 5xx retryable, other 4xx permanent. */
function errorFrom(status: number, body: unknown): TwilioError {
  const b = (body ?? {}) as { code?: unknown; message?: unknown; detail?: unknown; title?: unknown; more_info?: unknown };
  const code = typeof b.code === 'number' ? b.code : null;
  const text = [b.message, b.detail, b.title].find((v) => typeof v === 'string' && v) as string | undefined;
  const retryable = status === 429 || code === TOO_MANY_REQUESTS || status >= 500;
  const label = code ? `Twilio error ${code}` : `Twilio answered HTTP ${status}`;
  return new TwilioError(`${label}: ${text ?? 'no message'}`, status, code, retryable);
}

/** The StatusCallback of one SMS: the account's, naming our message (`?m=<id>`), so a receipt finds its message by id. */
export function statusCallbackOf(callback: string, messageId: number | undefined): string {
  return messageId && messageId > 0 ? `${callback}${callback.includes('?') ? '&' : '?'}m=${messageId}` : callback;
}

/**
 * Sends one SMS: POST {base}/2010-04-01/Accounts/{sid}/Messages.json with To, From, Body and, when the account
 * has one, StatusCallback naming the message (form-encoded, basic auth).
 * Resolves to the message SID as externalId, or a failure that says whether a retry can help.
 */
export async function sendTwilioSms(account: TwilioAccount, sms: { to: string; from: string; body: string; messageId?: number }): Promise<SendResult> {
  try {
    checkAccount(account);
    const form = new URLSearchParams({ To: sms.to.trim(), From: sms.from.trim(), Body: sms.body });
    if (account.statusCallback) form.set('StatusCallback', statusCallbackOf(account.statusCallback, sms.messageId));
    const { status, body } = await call(account, `${accountUrl(account)}/Messages.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    if (status < 200 || status >= 300) throw errorFrom(status, body);
    const sid = (body as { sid?: unknown } | null)?.sid;
    if (typeof sid !== 'string' || !sid) {
      // Twilio took the request; sending again could send the SMS twice.
      return { ok: false, retryable: false, error: `Twilio answered HTTP ${status} without a message SID.` };
    }
    return { ok: true, externalId: sid };
  } catch (error) {
    if (error instanceof TwilioError) {
      const throttled = error.status === 429 || error.code === TOO_MANY_REQUESTS;
      return { ok: false, retryable: error.retryable, error: error.message, ...(throttled ? { cause: 'throttled' as const } : {}) };
    }
    return { ok: false, retryable: true, error: `SMS failure: ${String(error)}` };
  }
}

/**
 * Every phone number of the account (GET .../IncomingPhoneNumbers.json, following next_page_uri), for the
 * integration sync. Throws TwilioError.
 */
export async function listIncomingPhoneNumbers(
  sid: string,
  token: string,
  options: { apiBase?: string | null; timeoutMs?: number; maxPages?: number; firstPageOnly?: boolean } = {},
): Promise<IncomingPhoneNumber[]> {
  const account: TwilioAccount = { sid, token, apiBase: options.apiBase, timeoutMs: options.timeoutMs };
  checkAccount(account);
  const base = (account.apiBase || DEFAULT_TWILIO_API_BASE).replace(/\/+$/, '');
  const numbers: IncomingPhoneNumber[] = [];
  let url: string | null = `${accountUrl(account)}/IncomingPhoneNumbers.json?PageSize=1000`;
  for (let page = 0; url; page++) {
    if (page >= (options.maxPages ?? 100)) throw new TwilioError('Twilio kept sending more pages of phone numbers than we follow (100).', 0, null, false);
    const { status, body } = await call(account, url, { method: 'GET' });
    if (status !== 200) throw errorFrom(status, body);
    const data = body as { incoming_phone_numbers?: unknown; next_page_uri?: unknown } | null;
    if (!data || !Array.isArray(data.incoming_phone_numbers)) {
      throw new TwilioError('Twilio answered without a list of phone numbers.', status, null, true);
    }
    for (const n of data.incoming_phone_numbers as Record<string, unknown>[]) {
      if (typeof n?.phone_number !== 'string') continue;
      numbers.push({
        sid: String(n.sid ?? ''),
        phone_number: n.phone_number,
        friendly_name: typeof n.friendly_name === 'string' ? n.friendly_name : null,
        capabilities: (n.capabilities as IncomingPhoneNumber['capabilities']) ?? null,
      });
    }
    const next = data.next_page_uri;
    // Only ever follow Twilio's own relative paths, on the same base.
    url = typeof next === 'string' && next.startsWith('/2010-04-01/') && !options.firstPageOnly ? `${base}${next}` : null;
  }
  return numbers;
}
