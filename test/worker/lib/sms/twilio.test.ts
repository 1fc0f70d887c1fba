// The SMS transport against Twilio's own contract (Prism serving Twilio's OpenAPI description, which refuses any
// request that breaks it), the error answers Prism cannot give (a local fault server), and the local SMS catcher.
import { describe, expect, it } from 'vitest';
import { listIncomingPhoneNumbers } from '../../../../src/lib/sms/twilio';
import { validTwilioSignature } from '../../../../src/lib/sms/twilio-signature';
import type { RecordedHook } from '../../../support/twilio-fault-server';
import { openTransport, syncPhoneNumbers, testIntegrationConnection, type TransportIntegration } from '../../../../src/lib/transport/open';
import type { OutgoingMessage } from '../../../../src/lib/transport/types';
import { NOT_SET_UP, S } from '../../../support/transport-helpers';

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'test-auth-token';
const integration = (sid = SID, token = TOKEN): TransportIntegration => ({ type: 'twilio', details: { sid }, secret: { token } });
let id = 5000;
const sms = (overrides: Partial<OutgoingMessage> = {}): OutgoingMessage => ({
  id: ++id,
  from: { address: '+15005550006' },
  to: '+14155550123',
  body: `Your code is ${id}. Grüße 👋`,
  ...overrides,
});

const PRISM_MISSING = NOT_SET_UP || !S.prism;
if (!NOT_SET_UP && !S.prism) console.warn(S.prismSkipReason);

describe.skipIf(PRISM_MISSING)("Twilio's contract (Prism mock of Twilio's OpenAPI description)", () => {
  it('sends an SMS (with a StatusCallback) the way the contract wants and returns the message SID', async () => {
    const transport = openTransport(
      integration(),
      { TWILIO_API_BASE: S.prism! },
      { twilioStatusCallback: 'https://relay.example.com/api/v1/hooks/twilio/7/status' },
    );
    const result = await transport.send(sms());
    expect(result).toMatchObject({ ok: true });
    expect((result as { externalId: string }).externalId).toMatch(/^SM[0-9a-zA-Z]{32}$/);
    const many = await transport.sendMany([sms(), sms(), sms(), sms(), sms()]);
    expect(many.every((r) => r.ok)).toBe(true);
    await transport.close();
  });

  it('the mock really checks the contract: no To, or no basic auth, is refused', async () => {
    const url = `${S.prism}/2010-04-01/Accounts/${SID}/Messages.json`;
    const auth = `Basic ${btoa(`${SID}:${TOKEN}`)}`;
    const noTo = await fetch(url, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'From=%2B15005550006&Body=hi',
    });
    expect(noTo.status).toBe(422);
    const noAuth = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'To=%2B14155550123&From=%2B15005550006&Body=hi',
    });
    expect(noAuth.status).toBe(401);
  });

  it('lists the phone numbers of the account through the same mock', async () => {
    const numbers = await listIncomingPhoneNumbers(SID, TOKEN, { apiBase: S.prism });
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers[0].phone_number).toMatch(/^\+\d{8,15}$/);
    expect(numbers[0].sid).toMatch(/^PN/);
    expect(await testIntegrationConnection(integration(), { TWILIO_API_BASE: S.prism! })).toMatchObject({ ok: true, code: 'ok' });
  });
});

describe.skipIf(NOT_SET_UP)('Twilio error answers (local fault server)', () => {
  const base = (mode: string) => ({ TWILIO_API_BASE: `${S.twilioFaults}/${mode}` });
  const sendIn = (mode: string, options = {}) => openTransport(integration(), base(mode), options).send(sms());

  it('posts To, From and Body form-encoded with basic auth to the account Messages resource', async () => {
    const message = sms({ body: 'Line 1\nLine 2 & more = ok' });
    const result = await openTransport(integration(), base('ok')).send(message);
    expect(result.ok).toBe(true);
    const requests = (await (await fetch(`${S.twilioFaults}/requests`)).json()) as {
      mode: string;
      method: string;
      path: string;
      authorization: string;
      contentType: string;
      form: Record<string, string>;
    }[];
    const sent = requests.filter((r) => r.mode === 'ok').pop()!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe(`/ok/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(sent.authorization).toBe(`Basic ${btoa(`${SID}:${TOKEN}`)}`);
    expect(sent.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    expect(sent.form).toEqual({ To: message.to, From: message.from.address, Body: message.body });
  });

  it("asks for delivery reports at the integration's StatusCallback when it has one, naming the message", async () => {
    const callback = 'https://relay.example.com/api/v1/hooks/twilio/7/status';
    const message = sms();
    expect((await openTransport(integration(), base('ok'), { twilioStatusCallback: callback }).send(message)).ok).toBe(true);
    const requests = (await (await fetch(`${S.twilioFaults}/requests`)).json()) as { mode: string; form: Record<string, string> }[];
    expect(requests.filter((r) => r.mode === 'ok').pop()!.form).toEqual({
      To: message.to,
      From: message.from.address,
      Body: message.body,
      StatusCallback: `${callback}?m=${message.id}`,
    });
  });

  it('429 and code 20429 are retryable', async () => {
    expect(await sendIn('http429')).toMatchObject({ ok: false, retryable: true });
    const coded = await sendIn('code20429');
    expect(coded).toMatchObject({ ok: false, retryable: true });
    expect((coded as { error: string }).error).toBe('Twilio error 20429: Too Many Requests');
  });

  it('5xx and timeouts are retryable', async () => {
    expect(await sendIn('http500')).toMatchObject({ ok: false, retryable: true });
    expect(await sendIn('http503')).toMatchObject({ ok: false, retryable: true });
    const started = Date.now();
    const slow = await sendIn('timeout', { twilioTimeoutMs: 500 });
    expect(slow).toMatchObject({ ok: false, retryable: true });
    expect((slow as { error: string }).error).toMatch(/did not answer within/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("other 4xx are permanent and keep the provider's message", async () => {
    const invalid = await sendIn('invalid');
    expect(invalid).toEqual({ ok: false, retryable: false, error: "Twilio error 21211: The 'To' number +14155550123 is not a valid phone number." });
    expect(await sendIn('unauthorized')).toMatchObject({ ok: false, retryable: false, error: 'Twilio error 20003: Authenticate' });
    expect(await sendIn('nosid')).toMatchObject({ ok: false, retryable: false });
  });

  it('an unreachable API is retryable; a malformed account SID or missing token is permanent', async () => {
    const closed = await openTransport(integration(), { TWILIO_API_BASE: `http://127.0.0.1:${S.closedPort}` }).send(sms());
    expect(closed).toMatchObject({ ok: false, retryable: true });
    const badSid = await openTransport(integration('ACnot-a-sid'), base('ok')).send(sms());
    expect(badSid).toMatchObject({ ok: false, retryable: false });
    expect((badSid as { error: string }).error).toMatch(/account SID/);
    expect(await openTransport(integration(SID, ''), base('ok')).send(sms())).toMatchObject({ ok: false, retryable: false });
  });

  it('follows next_page_uri through every page of phone numbers', async () => {
    const numbers = await syncPhoneNumbers(integration(), base('pages'));
    expect(numbers.map((n) => n.phone_number)).toEqual(['+15550000100', '+15550000101', '+15550000102', '+15550000103', '+15550000104', '+15550000105']);
    const check = await testIntegrationConnection(integration(), base('unauthorized'));
    expect(check).toMatchObject({ ok: false, code: 'auth_failed', server_reply: 'HTTP 401 (code 20003)' });
  });
});

describe.skipIf(NOT_SET_UP)('local SMS catcher (scripts/sms-catcher.mjs)', () => {
  it('accepts Twilio-shaped sends, keeps them readable, and answers like Twilio', async () => {
    const transport = openTransport(integration(), { TWILIO_API_BASE: S.smsCatcher });
    const message = sms({ body: 'Hello <Ada> & welcome' });
    const result = await transport.send(message);
    expect(result.ok).toBe(true);
    const sid = (result as { externalId: string }).externalId;
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);

    const list = (await (await fetch(`${S.smsCatcher}/messages.json`)).json()) as { sid: string; to: string; from: string; body: string; status: string }[];
    expect(list.find((m) => m.sid === sid)).toMatchObject({ to: message.to, from: message.from.address, body: message.body, status: 'queued' });
    const page = await (await fetch(`${S.smsCatcher}/`)).text();
    expect(page).toContain('Hello &lt;Ada&gt; &amp; welcome');
    expect(page).toContain(sid);
    const one = await fetch(`${S.smsCatcher}/2010-04-01/Accounts/${SID}/Messages/${sid}.json`, {
      headers: { authorization: `Basic ${btoa(`${SID}:${TOKEN}`)}` },
    });
    expect(((await one.json()) as { body: string }).body).toBe(message.body);
  });

  it('validates like Twilio: bad To is a permanent failure with the reason, no auth is 401', async () => {
    const bad = await openTransport(integration(), { TWILIO_API_BASE: S.smsCatcher }).send(sms({ to: '12345' }));
    expect(bad).toEqual({ ok: false, retryable: false, error: "Twilio error 21211: The 'To' number 12345 is not a valid phone number." });
    const empty = await openTransport(integration(), { TWILIO_API_BASE: S.smsCatcher }).send(sms({ body: '' }));
    expect(empty).toMatchObject({ ok: false, retryable: false, error: 'Twilio error 21602: Message body is required.' });
    const noAuth = await fetch(`${S.smsCatcher}/2010-04-01/Accounts/${SID}/Messages.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'To=%2B14155550123&From=%2B15005550006&Body=hi',
    });
    expect(noAuth.status).toBe(401);
    expect(((await noAuth.json()) as { code: number }).code).toBe(20003);
  });

  it('plays signed status callbacks (sent, then delivered; undelivered 30003 for numbers ending 99) and signed replies', async () => {
    const callback = `${S.twilioFaults}/hooks/twilio/41/status`;
    const transport = openTransport(integration(), { TWILIO_API_BASE: S.smsCatcher }, { twilioStatusCallback: callback });
    const okSms = sms({ to: '+14155550123' });
    const lostSms = sms({ to: '+14155550199' });
    const ok = (await transport.send(okSms)) as { externalId: string };
    const lost = (await transport.send(lostSms)) as { externalId: string };
    const hooksFor = async (sid: string) =>
      ((await (await fetch(`${S.twilioFaults}/hooks`)).json()) as RecordedHook[]).filter((h) => h.form.some(([k, v]) => k === 'MessageSid' && v === sid));
    await expect.poll(async () => (await hooksFor(lost.externalId)).length, { timeout: 5000 }).toBe(2);
    await expect.poll(async () => (await hooksFor(ok.externalId)).length, { timeout: 5000 }).toBe(2);
    const statuses = async (sid: string) =>
      (await hooksFor(sid)).map((h) => [Object.fromEntries(h.form).MessageStatus, Object.fromEntries(h.form).ErrorCode ?? null]);
    expect(await statuses(ok.externalId)).toEqual([
      ['sent', null],
      ['delivered', null],
    ]);
    expect(await statuses(lost.externalId)).toEqual([
      ['sent', null],
      ['undelivered', '30003'],
    ]);
    // Signed the way Twilio signs (the whole URL, the message's ?m= included), which our own check
    // (src/lib/sms/twilio-signature.ts) accepts, with that token only.
    for (const [hooks, message] of [
      [await hooksFor(ok.externalId), okSms],
      [await hooksFor(lost.externalId), lostSms],
    ] as const) {
      for (const hook of hooks) {
        expect(hook.path).toBe('/hooks/twilio/41/status');
        expect(hook.query).toBe(`?m=${message.id}`);
        expect(await validTwilioSignature(TOKEN, callback + hook.query, hook.form, hook.signature)).toBe(true);
        expect(await validTwilioSignature(TOKEN, callback, hook.form, hook.signature)).toBe(false);
        expect(await validTwilioSignature('another-token', callback + hook.query, hook.form, hook.signature)).toBe(false);
      }
    }

    // The recipient answers STOP: a signed inbound webhook to the integration's .../inbound URL.
    const replied = await fetch(`${S.smsCatcher}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sid: ok.externalId, body: 'STOP' }),
    });
    expect(replied.status).toBe(200);
    const hooks = (await (await fetch(`${S.twilioFaults}/hooks`)).json()) as RecordedHook[];
    const inbound = hooks.filter((h) => h.path === '/hooks/twilio/41/inbound').pop()!;
    expect(Object.fromEntries(inbound.form)).toMatchObject({ From: '+14155550123', To: '+15005550006', Body: 'STOP', AccountSid: SID });
    expect(await validTwilioSignature(TOKEN, `${S.twilioFaults}/hooks/twilio/41/inbound`, inbound.form, inbound.signature)).toBe(true);
    const caught = (await (await fetch(`${S.smsCatcher}/messages.json`)).json()) as { sid: string; status: string; error_code: string | null }[];
    expect(caught.find((m) => m.sid === lost.externalId)).toMatchObject({ status: 'undelivered', error_code: '30003' });
  });

  it("the viewer's Reply form says what became of the reply", async () => {
    const callback = `${S.twilioFaults}/hooks/twilio/42/status`;
    const transport = openTransport(integration(), { TWILIO_API_BASE: S.smsCatcher }, { twilioStatusCallback: callback });
    const sent = (await transport.send(sms({ to: '+14155550142' }))) as { externalId: string };
    const form = await fetch(`${S.smsCatcher}/reply`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sid: sent.externalId, Body: 'STOP' }).toString(),
      redirect: 'manual',
    });
    expect(form.status).toBe(303);
    const page = await (await fetch(new URL(form.headers.get('location')!, S.smsCatcher))).text();
    expect(page).toContain('id="reply-notice" class="ok"');
    expect(page).toContain('Reply &quot;STOP&quot; from +14155550142 sent to the platform, which took it (HTTP 204).');
  });

  it('lists the numbers configured for the local account', async () => {
    const numbers = await syncPhoneNumbers(integration(), { TWILIO_API_BASE: S.smsCatcher });
    expect(numbers.map((n) => n.phone_number)).toEqual(S.smsCatcherNumbers);
    const paged = (await (
      await fetch(`${S.smsCatcher}/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json?PageSize=2`, {
        headers: { authorization: `Basic ${btoa(`${SID}:${TOKEN}`)}` },
      })
    ).json()) as { incoming_phone_numbers: unknown[]; next_page_uri: string | null };
    expect(paged.incoming_phone_numbers).toHaveLength(2);
    expect(paged.next_page_uri).toBe(`/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json?PageSize=2&Page=1`);
  });
});
