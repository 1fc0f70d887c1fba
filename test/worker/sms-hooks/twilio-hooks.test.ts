// Twilio's callbacks on the Workers runtime: delivery receipts of SMS a broadcast really sent (through the real
// consumer with a recording transport), and inbound STOP/START replies. Each request is signed here the way
// Twilio signs (URL + sorted parameters, HMAC-SHA1 with the integration's auth token); a wrong, missing or
// other integration's signature changes nothing, receipts only ever move a message forward, and an opt-out is
// honoured by the next broadcast.
import { env } from 'cloudflare:workers';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { twilioSignature } from '../../../src/lib/sms/twilio-signature';
import { SKIP_REASONS } from '../../../src/shared/contracts/broadcast';
import { twilioHookUrl } from '../../../src/modules/sms-hooks/urls';
import { createDb } from '../../../src/db/client';
import { ledgerName } from '../../../src/modules/ledger/owner';
import { ledgerStub, orgLedger } from '../../../src/modules/ledger/registry';
import { TWILIO_INPUT } from '../channel-helpers';
import { call, callHost, ledgerOfMessage, ledgerSql } from '../helpers';
import { deliverAll, E, runAlarm, setup, startable } from '../broadcast/run-helpers';

const TOKEN = TWILIO_INPUT.token;
const PLATFORM_HOST = new URL(E.PUBLIC_URL).host;

/** A POST as Twilio makes it: form-encoded, signed with `token` (or the given signature) for the public URL. */
async function twilioPost(
  integrationId: number,
  hook: 'status' | 'inbound',
  fields: Record<string, string>,
  sign: { token?: string; signature?: string | null; host?: string; query?: string } = {},
) {
  const params = new URLSearchParams(fields);
  const query = sign.query ?? '';
  const signature =
    sign.signature !== undefined ? sign.signature : await twilioSignature(sign.token ?? TOKEN, twilioHookUrl(E, integrationId, hook) + query, params);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (signature !== null) headers['x-twilio-signature'] = signature;
  return callHost(sign.host ?? PLATFORM_HOST, new URL(twilioHookUrl(E, integrationId, hook)).pathname + query, {
    method: 'POST',
    headers,
    body: params.toString(),
  });
}

/** An SMS broadcast sent to Ann and Bob, answered by the provider with message SIDs SMann/SMbob. */
async function sentSms(prefix: string) {
  const s = await setup(prefix);
  const id = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id }));
  const rec = await deliverAll(await runAlarm(s.o, id), [
    { ok: true, externalId: 'SMann' },
    { ok: true, externalId: 'SMbob' },
  ]);
  const sidOf = new Map(rec.sent.map((m, i) => [m.to, i === 0 ? 'SMann' : 'SMbob']));
  const messageOf = async (sid: string) =>
    (await ledgerSql(s.o.orgId))
      .prepare('SELECT id, status, delivery_status, delivery_error_code FROM messages WHERE org_id = ? AND external_id = ?')
      .bind(s.o.orgId, sid)
      .first<Record<string, unknown>>();
  return { ...s, id, rec, sidOf, messageOf };
}

const receipt = (sid: string, status: string, extra: Record<string, string> = {}) => ({
  AccountSid: TWILIO_INPUT.sid,
  ApiVersion: '2010-04-01',
  MessageSid: sid,
  SmsSid: sid,
  MessageStatus: status,
  SmsStatus: status,
  From: '+15005550006',
  To: '+15550000001',
  ...extra,
});

describe('delivery receipts', () => {
  it('keeps the furthest status whatever order the callbacks arrive in, with the error code of an undelivered SMS', async () => {
    const { ch, sidOf, messageOf, o } = await sentSms('dr');
    expect([...sidOf.keys()].sort()).toEqual(['+15550000001', '+15550000002']);
    const ann = sidOf.get('+15550000001')!;
    const bob = sidOf.get('+15550000002')!;
    expect(await messageOf(ann)).toMatchObject({ status: 'sent', delivery_status: null });

    // Out of order: delivered arrives before sent and sending; the late ones change nothing.
    for (const status of ['delivered', 'sent', 'sending', 'queued']) expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, status))).status).toBe(204);
    expect(await messageOf(ann)).toMatchObject({ status: 'sent', delivery_status: 'delivered', delivery_error_code: null });

    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'sent'));
    expect(await messageOf(bob)).toMatchObject({ delivery_status: 'sent' });
    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'undelivered', { ErrorCode: '30003' }));
    // A final status is final: a "delivered" after "undelivered" (or the reverse) is not a step forward.
    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'delivered'));
    expect(await messageOf(bob)).toMatchObject({ delivery_status: 'undelivered', delivery_error_code: '30003' });

    // The console reads them on the message.
    const read = await o.api('GET', `/message/${(await messageOf(bob))!.id}`);
    expect(read.body.data).toMatchObject({ delivery_status: 'undelivered', delivery_error_code: '30003' });
    // Statuses we do not keep, and unknown SIDs, are received (Twilio would retry anything else) and change nothing.
    expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, 'read'))).status).toBe(204);
    expect((await twilioPost(ch.twilio.id, 'status', receipt('SMnobody', 'failed'))).status).toBe(204);
    expect(await messageOf(ann)).toMatchObject({ delivery_status: 'delivered' });
  });

  it("counts a broadcast's SMS undelivered once, whatever reports follow, as many as its recipients' Undelivered filter lists", async () => {
    const { ch, sidOf, messageOf, o, id } = await sentSms('du');
    const ann = sidOf.get('+15550000001')!;
    const bob = sidOf.get('+15550000002')!;
    const annId = Number((await messageOf(ann))!.id);
    const bobId = Number((await messageOf(bob))!.id);
    const undelivered = async () => (await o.api('GET', `/broadcast/${id}`)).body.data.engagement.undelivered as number;
    expect(await undelivered()).toBe(0);

    // Ann: sent, then undelivered (counted), then the same again and failed (by SID and by our id): counted once.
    await twilioPost(ch.twilio.id, 'status', receipt(ann, 'sent'));
    expect(await undelivered()).toBe(0);
    await twilioPost(ch.twilio.id, 'status', receipt(ann, 'undelivered', { ErrorCode: '30003' }));
    expect(await undelivered()).toBe(1);
    await twilioPost(ch.twilio.id, 'status', receipt(ann, 'undelivered', { ErrorCode: '30003' }));
    await twilioPost(ch.twilio.id, 'status', receipt(ann, 'failed', { ErrorCode: '30008' }));
    await twilioPost(ch.twilio.id, 'status', receipt(ann, 'failed', { ErrorCode: '30008' }), { query: `?m=${annId}` });
    expect(await messageOf(ann)).toMatchObject({ delivery_status: 'undelivered', delivery_error_code: '30003' });
    // Bob: delivered; a late failure (by our id, then by SID) is not a step forward and counts nothing.
    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'delivered'), { query: `?m=${bobId}` });
    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'failed', { ErrorCode: '30005' }), { query: `?m=${bobId}` });
    await twilioPost(ch.twilio.id, 'status', receipt(bob, 'undelivered', { ErrorCode: '30005' }));
    expect(await messageOf(bob)).toMatchObject({ delivery_status: 'delivered' });

    const b = (await o.api('GET', `/broadcast/${id}`)).body.data;
    const filtered = (await o.api('GET', `/broadcast/${id}/recipients?outcome=undelivered`)).body;
    expect(b.engagement.undelivered).toBe(1);
    expect(filtered.meta.total).toBe(b.engagement.undelivered);
    expect(filtered.items.map((r: { address: string }) => r.address)).toEqual(['+15550000001']);
    expect((await o.api('GET', `/message?type=sms&outcome=undelivered&broadcast_id=${id}`)).body.meta.total).toBe(1);
    // Sent stays what went out (the overview's Sent); its delivered part is the Sent filter.
    expect(b.sent).toBe(2);
    expect((await o.api('GET', `/broadcast/${id}/recipients?outcome=sent`)).body.meta.total).toBe(1);

    // D1's copy of the broadcast follows (the ledger's projection: the receipt bumped the row's revision).
    const handle = (await orgLedger(E, createDb(E.DB), o.orgId))!;
    await runDurableObjectAlarm(ledgerStub(E, ledgerName(handle.owner.key, handle.owner.generation)));
    expect(await env.DB.prepare('SELECT undelivered FROM broadcasts WHERE id = ?').bind(id).first('undelivered')).toBe(1);
  });

  it("pushes the broadcast's new Undelivered figure to the organisation's consoles, as a bounce's figures are", async () => {
    const { ch, sidOf, o, id } = await sentSms('dl');
    const res = await call(o.org, `/api/v1/live?access_token=${o.token}`, { headers: { upgrade: 'websocket' } });
    expect(res.status).toBe(101);
    const pushed: { type: string; broadcast?: { id: number; engagement: { undelivered: number } } }[] = [];
    res.webSocket!.accept();
    res.webSocket!.addEventListener('message', (e) => pushed.push(JSON.parse(String(e.data))));
    await twilioPost(ch.twilio.id, 'status', receipt(sidOf.get('+15550000002')!, 'undelivered', { ErrorCode: '30003' }));
    // The hub's message reaches this socket a few turns after the publish returned: wait for it (as test/worker/import/live.test.ts).
    const figure = () => pushed.find((e) => e.type === 'broadcast.progress' && e.broadcast?.id === id)?.broadcast?.engagement.undelivered;
    for (const deadline = Date.now() + 10_000; figure() === undefined && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(figure()).toBe(1);
    res.webSocket!.close(1000, 'done');
  });

  it('finds the message its StatusCallback names (?m=), even before the provider id is recorded, and only in its organisation', async () => {
    const { ch, sidOf, messageOf, o } = await sentSms('dm');
    const ann = sidOf.get('+15550000001')!;
    const bob = sidOf.get('+15550000002')!;
    const annId = Number((await messageOf(ann))!.id);
    const bobId = Number((await messageOf(bob))!.id);
    // As if the callback came before the batch's outcome report wrote the SID.
    await (await ledgerOfMessage(annId)).prepare('UPDATE messages SET external_id = NULL WHERE id = ?').bind(annId).run();
    expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, 'sent'), { query: `?m=${annId}` })).status).toBe(204);
    expect(await (await ledgerOfMessage(annId)).prepare('SELECT delivery_status FROM messages WHERE id = ?').bind(annId).first('delivery_status')).toBe('sent');
    // A provider id that is not the message's changes nothing.
    expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { query: `?m=${bobId}` })).status).toBe(204);
    expect(await messageOf(bob)).toMatchObject({ delivery_status: null });
    // Another organisation's message id, on a callback signed for this integration, is not found.
    const other = await sentSms('dn');
    const theirs = Number((await other.messageOf(other.sidOf.get('+15550000001')!))!.id);
    await twilioPost(ch.twilio.id, 'status', receipt(other.sidOf.get('+15550000001')!, 'delivered'), { query: `?m=${theirs}` });
    expect(await other.messageOf(other.sidOf.get('+15550000001')!)).toMatchObject({ delivery_status: null });
    // The query is signed with the rest: a callback whose m was changed is refused.
    const signed = await twilioSignature(TOKEN, `${twilioHookUrl(E, ch.twilio.id, 'status')}?m=${annId}`, new URLSearchParams(receipt(bob, 'failed')));
    expect((await twilioPost(ch.twilio.id, 'status', receipt(bob, 'failed'), { query: `?m=${bobId}`, signature: signed })).status).toBe(403);
    expect(await messageOf(bob)).toMatchObject({ delivery_status: null });
    expect((await o.api('GET', `/message/${annId}`)).body.data).toMatchObject({ delivery_status: 'sent' });
  });

  it('refuses a wrong, missing, malformed or tampered signature with 403 and changes nothing', async () => {
    const { ch, sidOf, messageOf } = await sentSms('ds');
    const ann = sidOf.get('+15550000001')!;
    const good = await twilioSignature(TOKEN, twilioHookUrl(E, ch.twilio.id, 'status'), new URLSearchParams(receipt(ann, 'delivered')));
    const attempts = [
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { token: 'not-the-token' }),
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { signature: null }),
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { signature: 'not base64 at all!' }),
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { signature: '' }),
      // Signed for "sent", replayed as "delivered".
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), {
        signature: await twilioSignature(TOKEN, twilioHookUrl(E, ch.twilio.id, 'status'), new URLSearchParams(receipt(ann, 'sent'))),
      }),
      // Signed for the inbound URL, sent to the status URL.
      await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), {
        signature: await twilioSignature(TOKEN, twilioHookUrl(E, ch.twilio.id, 'inbound'), new URLSearchParams(receipt(ann, 'delivered'))),
      }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect((await res.json<any>()).error.code).toBe('webhook_invalid');
    }
    expect(await messageOf(ann)).toMatchObject({ delivery_status: null });
    // The same request with the right signature is taken; a bad integration id is a 404.
    expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, 'delivered'), { signature: good })).status).toBe(204);
    expect(await messageOf(ann)).toMatchObject({ delivery_status: 'delivered' });
    expect((await twilioPost(ch.smtp.id, 'status', receipt(ann, 'failed'))).status).toBe(404);
    expect((await twilioPost(987_654, 'status', receipt(ann, 'failed'))).status).toBe(404);
    const garbage = await callHost(PLATFORM_HOST, '/api/v1/hooks/twilio/abc/status', { method: 'POST', body: '%%%' });
    expect(garbage.status).toBe(404);
  });

  it("never reaches another organisation: a callback signed for one's integration, replayed to the other's, is refused", async () => {
    const a = await sentSms('da');
    const b = await sentSms('db');
    // Both organisations hold the same auth token here (the worst case). A receipt for a SID only org A has,
    // validly signed for org B's integration, is looked up in org B alone and changes nothing in A.
    await (await ledgerSql(a.o.orgId)).prepare("UPDATE messages SET external_id = 'SMonlyA' WHERE org_id = ? AND external_id = 'SMann'").bind(a.o.orgId).run();
    await twilioPost(b.ch.twilio.id, 'status', receipt('SMonlyA', 'undelivered', { ErrorCode: '30005' }));
    expect(await a.messageOf('SMonlyA')).toMatchObject({ delivery_status: null });
    // A's signature (its URL) replayed to B's URL does not verify.
    const params = new URLSearchParams(receipt('SMann', 'failed'));
    const signedForA = await twilioSignature(TOKEN, twilioHookUrl(E, a.ch.twilio.id, 'status'), params);
    expect((await twilioPost(b.ch.twilio.id, 'status', receipt('SMann', 'failed'), { signature: signedForA })).status).toBe(403);
    expect(await b.messageOf('SMann')).toMatchObject({ delivery_status: null });
    // A different token on B (another account): A's token no longer signs for B at all.
    expect((await b.o.api('PATCH', `/integration/${b.ch.twilio.id}/twilio/credentials`, { sid: TWILIO_INPUT.sid, token: 'b-own-token' })).status).toBe(200);
    expect((await twilioPost(b.ch.twilio.id, 'status', receipt('SMann', 'failed'))).status).toBe(403);
    expect((await twilioPost(b.ch.twilio.id, 'status', receipt('SMann', 'failed'), { token: 'b-own-token' })).status).toBe(204);
    expect(await b.messageOf('SMann')).toMatchObject({ delivery_status: 'failed' });
    expect(await a.messageOf('SMbob')).toMatchObject({ delivery_status: null });
  });

  it('checks the signature against the public URL, whatever host the request came in on', async () => {
    const { ch, sidOf, messageOf, o } = await sentSms('dh');
    const ann = sidOf.get('+15550000001')!;
    // Signed for the public (platform) URL, delivered to the worker on an organisation's host by a proxy.
    expect((await twilioPost(ch.twilio.id, 'status', receipt(ann, 'sent'), { host: `${o.org}.${PLATFORM_HOST}` })).status).toBe(204);
    expect(await messageOf(ann)).toMatchObject({ delivery_status: 'sent' });
  });
});

describe('inbound STOP and START', () => {
  const inbound = (from: string, body: string, extra: Record<string, string> = {}) => ({
    AccountSid: TWILIO_INPUT.sid,
    MessageSid: `SMin${Math.random().toString(16).slice(2)}`,
    From: from,
    To: '+15005550006',
    Body: body,
    NumMedia: '0',
    ...extra,
  });
  const optOuts = (orgId: number) =>
    env.DB.prepare('SELECT phone, keyword FROM sms_opt_outs WHERE org_id = ? ORDER BY phone')
      .bind(orgId)
      .all()
      .then((r) => r.results);

  it('opts the number out of the organisation on any stop keyword, back in on START or UNSTOP, with an empty TwiML answer', async () => {
    const { ch, o, people } = await sentSms('in');
    const res = await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000001', ' stop '));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('xml');
    expect(await res.text()).toContain('<Response></Response>');
    expect(await optOuts(o.orgId)).toEqual([{ phone: '+15550000001', keyword: 'STOP' }]);
    for (const word of ['STOPALL', 'UNSUBSCRIBE', 'END', 'QUIT', 'CANCEL', 'OPTOUT', 'REVOKE']) {
      await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000002', word));
      expect(await optOuts(o.orgId), word).toContainEqual({ phone: '+15550000002', keyword: 'STOPALL' });
    }
    // Not a keyword: a sentence that happens to contain one.
    await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000003', 'please stop the noise'));
    expect(await optOuts(o.orgId)).toHaveLength(2);
    // The contact's page shows it.
    expect((await o.api('GET', `/contact/${people.ann}/unsubscribes`)).body.data.sms_opt_outs).toEqual([
      expect.objectContaining({ phone: '+15550000001', keyword: 'STOP' }),
    ]);

    await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000001', 'Start'));
    await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000002', 'UNSTOP'));
    expect(await optOuts(o.orgId)).toEqual([]);
    // Twilio's Advanced Opt-Out names the kind itself.
    await twilioPost(ch.twilio.id, 'inbound', inbound('+15550000001', 'ARRET', { OptOutType: 'STOP' }));
    expect(await optOuts(o.orgId)).toEqual([{ phone: '+15550000001', keyword: 'ARRET' }]);
  });

  it('refuses an unsigned or mis-signed reply and keeps it to the organisation that owns the integration', async () => {
    const a = await sentSms('ia');
    const b = await sentSms('ib');
    expect((await twilioPost(a.ch.twilio.id, 'inbound', inbound('+15550000001', 'STOP'), { signature: null })).status).toBe(403);
    expect((await twilioPost(a.ch.twilio.id, 'inbound', inbound('+15550000001', 'STOP'), { token: 'nope' })).status).toBe(403);
    expect(await optOuts(a.o.orgId)).toEqual([]);
    await twilioPost(a.ch.twilio.id, 'inbound', inbound('+15550000001', 'STOP'));
    expect(await optOuts(a.o.orgId)).toHaveLength(1);
    expect(await optOuts(b.o.orgId)).toEqual([]);
  });

  it('is honoured by the next broadcast: the number that said STOP is skipped, and sent to again after START', async () => {
    const s = await sentSms('ih');
    await twilioPost(s.ch.twilio.id, 'inbound', inbound('+15550000002', 'STOP'));
    const next = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id, name: 'Again' }));
    const rec = await deliverAll(await runAlarm(s.o, next));
    expect(rec.sent.map((m) => m.to)).toEqual(['+15550000001']);
    const bob = await (await ledgerSql(s.o.orgId))
      .prepare('SELECT status, error FROM messages WHERE broadcast_id = ? AND contact_id = ?')
      .bind(next, s.people.bob)
      .first();
    expect(bob).toMatchObject({ status: 'skipped', error: SKIP_REASONS.smsOptedOut });

    await twilioPost(s.ch.twilio.id, 'inbound', inbound('+15550000002', 'START'));
    const third = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id, name: 'Third' }));
    expect((await deliverAll(await runAlarm(s.o, third))).sent.map((m) => m.to).sort()).toEqual(['+15550000001', '+15550000002']);
  });
});
