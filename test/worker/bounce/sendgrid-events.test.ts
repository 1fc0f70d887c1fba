// SendGrid's signed Event Webhook (src/modules/bounce/sendgrid-routes.ts) on the Workers runtime: a broadcast really
// sent through an SMTP integration that holds a verification key (each mail names its message in X-SMTPAPI), then
// SendGrid's events for it, signed here as SendGrid signs them (ECDSA P-256 over timestamp + body, DER, base64).
// A valid request applies its bounces and spam reports once; a wrong, missing, tampered, stale or other
// integration's signature is refused and changes nothing; a replay changes nothing more.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { derToP1363, p1363ToDer, sendGridKeyPair, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../src/lib/sendgrid/event-signature';
import { sendGridEventsUrl } from '../../../src/modules/bounce/sendgrid-events';
import { INTEGRATION_MESSAGES } from '../../../src/shared/contracts/integration';
import { callHost } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { row } from '../channel-helpers';

const PLATFORM_HOST = new URL(E.PUBLIC_URL).host;
const now = () => String(Math.floor(Date.now() / 1000));

type KeyPair = Awaited<ReturnType<typeof sendGridKeyPair>>;

/** POSTs `events` to the integration's webhook as SendGrid does: signed with `keys` unless told otherwise. */
async function post(integrationId: number, body: string, sign: { keys?: KeyPair; timestamp?: string; signature?: string | null } = {}) {
  const timestamp = sign.timestamp ?? now();
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature = sign.signature !== undefined ? sign.signature : await sign.keys!.sign(body, timestamp);
  if (signature !== null) {
    headers[SIGNATURE_HEADER] = signature;
    headers[TIMESTAMP_HEADER] = timestamp;
  }
  const res = await callHost(PLATFORM_HOST, new URL(sendGridEventsUrl(E, integrationId)).pathname, { method: 'POST', headers, body });
  return {
    status: res.status,
    body: (await res.json().catch(() => null)) as { data?: { received: number; applied: number }; error?: { code: string } } | null,
  };
}

/** An organisation whose SMTP integration takes SendGrid's events, with a broadcast sent to Ann, Cat and Dan. */
async function sendGridOrg(prefix: string) {
  const s = await setup(prefix);
  const keys = await sendGridKeyPair();
  const bad = await s.o.api('PUT', `/integration/${s.ch.smtp.id}`, { name: 'SendGrid', details: { sendgrid_verification_key: 'not a key' } });
  expect(bad.status).toBe(422);
  expect(bad.body.error.fields['details.sendgrid_verification_key']).toEqual([INTEGRATION_MESSAGES.sendgridKey]);
  const put = await s.o.api('PUT', `/integration/${s.ch.smtp.id}`, { name: 'SendGrid', details: { sendgrid_verification_key: keys.verificationKey } });
  expect(put.status, put.text).toBe(200);
  expect(put.body.data.webhook_url).toBe(sendGridEventsUrl(E, s.ch.smtp.id));
  const id = await startable(s.o, s.body());
  const rec = await deliverAll(await runAlarm(s.o, id));
  const idOf = (to: string) => {
    const header = rec.sent.find((m) => m.to === to)!.headers!['X-SMTPAPI'];
    return Number(JSON.parse(header).unique_args.relay_message_id);
  };
  return { ...s, keys, id, rec, idOf };
}

const bounce = (messageId: number, email: string, extra: Record<string, unknown> = {}) => ({
  email,
  event: 'bounce',
  type: 'bounce',
  status: '5.1.1',
  reason: '550 5.1.1 The email account that you tried to reach does not exist',
  sg_event_id: `e-${messageId}`,
  relay_message_id: String(messageId),
  timestamp: Math.floor(Date.now() / 1000),
  ...extra,
});

const suppressed = (orgId: number) =>
  env.DB.prepare('SELECT value, reason FROM blacklist WHERE org_id = ? ORDER BY value')
    .bind(orgId)
    .all<{ value: string; reason: string }>()
    .then((r) => r.results);

describe("SendGrid's signed events", () => {
  it('turns DER signatures into the form WebCrypto verifies and back', () => {
    const raw = Uint8Array.from({ length: 64 }, (_, i) => (i === 0 || i === 32 ? 0x80 : i));
    const der = p1363ToDer(raw);
    // Both halves have their top bit set: each INTEGER gains a leading zero.
    expect([der[0], der[2], der[3], der[4]]).toEqual([0x30, 0x02, 33, 0]);
    expect(derToP1363(der)).toEqual(raw);
    expect(derToP1363(der.subarray(0, der.length - 1))).toBeNull();
    expect(derToP1363(new Uint8Array([1, 2, 3]))).toBeNull();
  });

  it('apply a signed bounce and spam report once, name the message in X-SMTPAPI, and leave other events alone', async () => {
    const s = await sendGridOrg('sg');
    const cat = s.idOf('cat@example.com');
    const ann = s.idOf('ann@example.com');
    const body = JSON.stringify([
      { email: 'dan@example.com', event: 'delivered', relay_message_id: String(s.idOf('dan@example.com')), timestamp: 1 },
      bounce(cat, 'cat@example.com'),
      // A spam report carries no smtp-id: the custom argument names the message.
      { email: 'ann@example.com', event: 'spamreport', relay_message_id: String(ann), timestamp: 1 },
      { email: 'dan@example.com', event: 'deferred', relay_message_id: String(s.idOf('dan@example.com')), response: '421 try later' },
    ]);
    const first = await post(s.ch.smtp.id, body, { keys: s.keys });
    expect(first).toEqual({ status: 200, body: { data: { received: 4, applied: 2 } } });
    expect(await row('messages', cat)).toMatchObject({ delivery_status: 'bounced', delivery_error_code: '5.1.1' });
    expect(await row('messages', ann)).toMatchObject({ delivery_status: 'complained' });
    expect(await row('messages', s.idOf('dan@example.com'))).toMatchObject({ delivery_status: null });
    expect(await suppressed(s.o.orgId)).toEqual([
      { value: 'ann@example.com', reason: 'complaint' },
      { value: 'cat@example.com', reason: 'bounce' },
    ]);
    const counts = async () => (await s.o.api('GET', `/broadcast/${s.id}`)).body.data.engagement;
    expect(await counts()).toMatchObject({ bounces: 1, complaints: 1 });

    // Replayed as it was (same body, same signature): received, but nothing counts twice.
    const replay = await post(s.ch.smtp.id, body, { keys: s.keys });
    expect(replay.status).toBe(200);
    expect(await counts()).toMatchObject({ bounces: 1, complaints: 1 });
    expect((await s.o.api('GET', '/dashboard')).body.data.week).toMatchObject({ bounces: 1, complaints: 1 });

    // A soft "blocked" bounce found by its Message-ID (smtp-id) alone.
    const dan = s.idOf('dan@example.com');
    const blocked = JSON.stringify([
      bounce(dan, 'dan@example.com', { type: 'blocked', status: '4.7.1', relay_message_id: undefined, 'smtp-id': `<relay-${dan}@acme.test>` }),
    ]);
    expect((await post(s.ch.smtp.id, blocked, { keys: s.keys })).body?.data).toEqual({ received: 1, applied: 1 });
    expect(await row('messages', dan)).toMatchObject({ delivery_status: 'soft_bounced', delivery_error_code: '4.7.1' });
  });

  it('refuse a wrong, missing, tampered or stale signature, and a body that is not events, changing nothing', async () => {
    const s = await sendGridOrg('sgr');
    const cat = s.idOf('cat@example.com');
    const body = JSON.stringify([bounce(cat, 'cat@example.com')]);
    const stranger = await sendGridKeyPair();
    expect((await post(s.ch.smtp.id, body, { keys: stranger })).status).toBe(403);
    expect((await post(s.ch.smtp.id, body, { signature: null })).status).toBe(403);
    expect((await post(s.ch.smtp.id, body, { signature: 'bm90IGEgc2lnbmF0dXJl' })).status).toBe(403);
    // Signed for one body, sent with another.
    const signature = await s.keys.sign(body, now());
    expect((await post(s.ch.smtp.id, body.replace('5.1.1', '5.1.2'), { signature })).status).toBe(403);
    // Signed two days ago: a replay past SendGrid's retry horizon.
    const old = String(Math.floor(Date.now() / 1000) - 2 * 86_400);
    const stale = await post(s.ch.smtp.id, body, { keys: s.keys, timestamp: old });
    expect(stale).toMatchObject({ status: 403, body: { error: { code: 'webhook_invalid' } } });
    // Signed, but not a JSON array.
    expect((await post(s.ch.smtp.id, '{"event":"bounce"}', { keys: s.keys })).status).toBe(400);
    expect((await post(s.ch.smtp.id, 'not json', { keys: s.keys })).status).toBe(400);
    // Not an SMTP integration, or not one at all.
    expect((await post(s.ch.twilio.id, body, { keys: s.keys })).status).toBe(404);
    expect((await post(999999, body, { keys: s.keys })).status).toBe(404);
    expect(await row('messages', cat)).toMatchObject({ delivery_status: null });
    expect(await suppressed(s.o.orgId)).toEqual([]);
  });

  it("never reach another organisation: events signed for A's integration naming B's messages change nothing", async () => {
    const a = await sendGridOrg('sga');
    const b = await sendGridOrg('sgb');
    const bCat = b.idOf('cat@example.com');
    // A's own key signs it, for A's URL, but the message is B's (same address): not applied.
    const body = JSON.stringify([
      bounce(bCat, 'cat@example.com'),
      { email: 'ann@example.com', event: 'spamreport', relay_message_id: String(b.idOf('ann@example.com')) },
    ]);
    expect((await post(a.ch.smtp.id, body, { keys: a.keys })).body?.data).toEqual({ received: 2, applied: 0 });
    // B's own request replayed to A's URL does not verify under A's key.
    expect((await post(a.ch.smtp.id, body, { keys: b.keys })).status).toBe(403);
    // An event naming A's message with another address: not applied.
    const wrongAddress = JSON.stringify([bounce(a.idOf('cat@example.com'), 'someone-else@example.com')]);
    expect((await post(a.ch.smtp.id, wrongAddress, { keys: a.keys })).body?.data).toEqual({ received: 1, applied: 0 });
    expect(await row('messages', bCat)).toMatchObject({ delivery_status: null });
    expect(await suppressed(a.o.orgId)).toEqual([]);
    expect(await suppressed(b.o.orgId)).toEqual([]);
  });
});
