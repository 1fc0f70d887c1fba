// Bounces and spam complaints (src/modules/bounce): each email's return path is a signed address on BOUNCE_DOMAIN,
// what comes back to it is read (RFC 3464 delivery status notifications, RFC 5965 feedback reports, the common
// non-standard bounces, auto-replies), and a hard bounce or a complaint blacklists the address, so the next broadcast
// skips it; a complaint also unsubscribes the contact. Forged or unrecognised mail is kept in R2 and changes nothing.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { bounceAddress, readBounceAddress } from '../../../src/modules/bounce/address';
import { handleBounceMail, KEPT_PREFIX } from '../../../src/modules/bounce/handle';
import { KEPT_MAIL_DAYS, pruneKeptMail } from '../../../src/modules/bounce/kept-mail';
import { receiveBounceMail } from '../../../src/modules/bounce/receive';
import { readBounceReport } from '../../../src/modules/bounce/report';
import { deliverBatch } from '../../../src/modules/sending/deliver-batch';
import { SendChannels } from '../../../src/modules/sending/channels';
import { recordingProviders, row } from '../channel-helpers';
import { E, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { arf, AUTO_REPLY, blacklisted, BOUNCING, bouncingBroadcast, bytes, DOMAIN, dsn, TEXT_BOUNCE } from './bounce-helpers';

describe('the bounce address', () => {
  it('is signed, lower case, names the organisation and message, and a forged or foreign one names nothing', async () => {
    const address = await bounceAddress(E, DOMAIN, { orgId: 12, messageId: 4294967297 });
    expect(address).toMatch(/^b-c-[0-9a-z]+-[0-9a-f]{20}@bounces\.relay\.test$/);
    expect(await readBounceAddress(BOUNCING, address)).toEqual({ orgId: 12, messageId: 4294967297 });
    // A server that upper-cases the local part changes nothing.
    expect(await readBounceAddress(BOUNCING, address.toUpperCase())).toEqual({ orgId: 12, messageId: 4294967297 });
    const other = address.replace(/^b-c-/, 'b-d-');
    expect(await readBounceAddress(BOUNCING, other)).toBeNull();
    expect(await readBounceAddress(BOUNCING, address.replace(DOMAIN, 'elsewhere.test'))).toBeNull();
    expect(await readBounceAddress(E, address)).toBeNull();
    expect(await readBounceAddress(BOUNCING, 'postmaster@bounces.relay.test')).toBeNull();
  });
});

describe('what comes back', () => {
  it('reads delivery status notifications, feedback reports, text bounces and auto-replies', async () => {
    expect(await readBounceReport(bytes(dsn('ann@example.com', '5.1.1')))).toMatchObject({
      kind: 'bounce',
      hard: true,
      status: '5.1.1',
      recipient: 'ann@example.com',
    });
    expect(await readBounceReport(bytes(dsn('ann@example.com', '4.2.2')))).toMatchObject({ kind: 'bounce', hard: false, status: '4.2.2' });
    expect(await readBounceReport(bytes(dsn('ann@example.com', '4.4.7', 'delayed')))).toMatchObject({ kind: 'ignored' });
    expect(await readBounceReport(bytes(arf('ann@example.com')))).toEqual({ kind: 'complaint', feedbackType: 'abuse' });
    expect(await readBounceReport(bytes(AUTO_REPLY))).toMatchObject({ kind: 'ignored' });
    expect(await readBounceReport(bytes(TEXT_BOUNCE))).toMatchObject({ kind: 'bounce', hard: true, status: '5.1.1' });
    expect(await readBounceReport(bytes('From: friend@example.com\nSubject: Hello\n\nThanks for the news!\n'))).toMatchObject({ kind: 'unrecognised' });
  });
});

describe('a bounce or a complaint', () => {
  it('gives each email its bounce address, and a hard bounce blacklists the address so the next broadcast skips it', async () => {
    const s = await bouncingBroadcast('bh');
    const cat = s.to('cat@example.com');
    expect(cat.returnPath).toMatch(new RegExp(`^b-[0-9a-z]+-[0-9a-z]+-[0-9a-f]{20}@${DOMAIN.replaceAll('.', '\\.')}$`));
    const ref = (await readBounceAddress(BOUNCING, cat.returnPath!))!;
    expect(ref.orgId).toBe(s.o.orgId);

    const mail = { from: 'MAILER-DAEMON@mx.example.net', to: cat.returnPath!, raw: bytes(dsn('cat@example.com', '5.1.1')) };
    expect(await handleBounceMail(BOUNCING, mail)).toBe('bounced');
    // The same bounce again (a server retrying) changes nothing more.
    expect(await handleBounceMail(BOUNCING, mail)).toBe('bounced');
    expect(await row('messages', ref.messageId)).toMatchObject({ status: 'sent', delivery_status: 'bounced', delivery_error_code: '5.1.1' });
    expect((await s.o.api('GET', `/message/${ref.messageId}`)).body.data).toMatchObject({ delivery_status: 'bounced', delivery_error_code: '5.1.1' });
    expect(await blacklisted(s.o.orgId)).toEqual([{ value: 'cat@example.com', info: `Hard bounce 5.1.1 (message ${ref.messageId})` }]);
    // The broadcast counts it once, however often the bounce came.
    expect((await s.o.api('GET', `/broadcast/${s.id}`)).body.data.engagement).toMatchObject({ bounces: 1, complaints: 0 });

    // A later soft bounce of the same message does not lower its report.
    await handleBounceMail(BOUNCING, { ...mail, raw: bytes(dsn('cat@example.com', '4.2.2')) });
    expect(await row('messages', ref.messageId)).toMatchObject({ delivery_status: 'bounced' });

    // The next broadcast skips Cat as blacklisted.
    const next = await startable(s.o, s.body({ name: 'Next' }));
    await runAlarm(s.o, next);
    const recipients = (await s.o.api('GET', `/broadcast/${next}/recipients?status=skipped`)).body.items;
    expect(recipients.map((r: { address: string }) => r.address)).toContain('cat@example.com');
  });

  it('marks a soft bounce without blacklisting, and a complaint unsubscribes the contact from everything and blacklists', async () => {
    const s = await bouncingBroadcast('bc');
    const dan = s.to('dan@example.com');
    const danRef = (await readBounceAddress(BOUNCING, dan.returnPath!))!;
    expect(await handleBounceMail(BOUNCING, { from: 'MAILER-DAEMON@x', to: dan.returnPath!, raw: bytes(dsn('dan@example.com', '4.2.2')) })).toBe(
      'soft_bounced',
    );
    expect(await row('messages', danRef.messageId)).toMatchObject({ delivery_status: 'soft_bounced', delivery_error_code: '4.2.2' });
    expect(await blacklisted(s.o.orgId)).toEqual([]);

    const second = (await s.o.api('POST', '/subscription', { name: 'Offers' })).body.data;
    const ann = s.to('ann@example.com');
    const annRef = (await readBounceAddress(BOUNCING, ann.returnPath!))!;
    // Through the worker's email handler, as Email Routing delivers it.
    const raw = new Response(bytes(arf('ann@example.com'))).body!;
    await receiveBounceMail({ from: 'feedback@mailbox.example.com', to: ann.returnPath!, raw, rawSize: 0 } as unknown as ForwardableEmailMessage, BOUNCING);
    expect(await row('messages', annRef.messageId)).toMatchObject({ delivery_status: 'complained' });
    expect(await blacklisted(s.o.orgId)).toEqual([{ value: 'ann@example.com', info: `Reported as spam (message ${annRef.messageId})` }]);
    // A soft bounce is not counted as a bounce; the complaint is.
    expect((await s.o.api('GET', `/broadcast/${s.id}`)).body.data.engagement).toMatchObject({ bounces: 0, complaints: 1 });
    const left = await env.DB.prepare('SELECT subscription_id, source, reason FROM unsubscribes WHERE org_id = ? AND contact_id = ? ORDER BY subscription_id')
      .bind(s.o.orgId, s.people.ann)
      .all();
    expect(left.results).toEqual([
      { subscription_id: s.subscription.id, source: 'complaint', reason: 'spam' },
      { subscription_id: second.id, source: 'complaint', reason: 'spam' },
    ]);
  });

  it('keeps forged, foreign and unrecognised mail for the operator and changes nothing; an auto-reply is ignored', async () => {
    const s = await bouncingBroadcast('bf');
    const cat = s.to('cat@example.com');
    const forged = cat.returnPath!.replace(/-([0-9a-f]{20})@/, (_, tag: string) => `-${tag.slice(0, -1)}${tag.endsWith('0') ? '1' : '0'}@`);
    const before = (await E.FILES.list({ prefix: KEPT_PREFIX })).objects.length;
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: forged, raw: bytes(dsn('cat@example.com', '5.1.1')) })).toBe('kept');
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: cat.returnPath!, raw: bytes('From: a@b\nSubject: Hi\n\nHello') })).toBe('kept');
    expect(await handleBounceMail(BOUNCING, { from: 'ann@example.com', to: cat.returnPath!, raw: bytes(AUTO_REPLY) })).toBe('ignored');
    const kept = (await E.FILES.list({ prefix: KEPT_PREFIX, include: ['customMetadata'] })).objects;
    expect(kept.length - before).toBe(2);
    expect(kept.map((o) => o.customMetadata?.why)).toContain('not one of our bounce addresses');
    expect(await blacklisted(s.o.orgId)).toEqual([]);
    const ref = (await readBounceAddress(BOUNCING, cat.returnPath!))!;
    expect(await row('messages', ref.messageId)).toMatchObject({ delivery_status: null });
  });

  it('leaves the return path alone without BOUNCE_DOMAIN, or when the integration has its own', async () => {
    const s = await setup('bo');
    const id = await startable(s.o, s.body());
    const bodies = await runAlarm(s.o, id);
    const rec = recordingProviders([{ ok: true, externalId: 'x' }]);
    const channels = new SendChannels(E, rec.providers);
    for (const body of bodies) await deliverBatch(E, body, 1, channels);
    await channels.close();
    expect(rec.sent.every((m) => !m.returnPath?.includes('@bounces'))).toBe(true);

    const own = await setup('bo2');
    await env.DB.prepare("UPDATE integrations SET details = json_set(details, '$.return_path', 'bounces@own.example') WHERE id = ?").bind(own.ch.smtp.id).run();
    const ownId = await startable(own.o, own.body());
    const ownRec = recordingProviders([{ ok: true, externalId: 'x' }]);
    const ownChannels = new SendChannels(BOUNCING, ownRec.providers);
    for (const body of await runAlarm(own.o, ownId)) await deliverBatch(BOUNCING, body, 1, ownChannels);
    await ownChannels.close();
    expect(ownRec.sent.map((m) => m.returnPath)).toEqual(ownRec.sent.map(() => 'bounces@own.example'));
  });
});

describe('kept mail', () => {
  it('stays 30 days: the housekeeping step deletes the days before, oldest first, and keeps the rest', async () => {
    const now = Date.parse('2026-11-28T12:00:00Z');
    const day = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const put = (daysAgo: number, n: number) => E.FILES.put(`${KEPT_PREFIX}${day(daysAgo)}/${crypto.randomUUID()}.eml`, `mail ${daysAgo} ${n}`);
    for (const daysAgo of [45, 31, 30, 29, 0]) for (const n of [1, 2]) await put(daysAgo, n);
    const days = async () => [
      ...new Set((await E.FILES.list({ prefix: KEPT_PREFIX })).objects.map((o) => o.key.slice(KEPT_PREFIX.length, KEPT_PREFIX.length + 10))),
    ];
    const before = await days();
    expect(await pruneKeptMail(E.FILES, now)).toBe(4);
    expect(await days()).toEqual(before.filter((d) => d >= day(KEPT_MAIL_DAYS)));
    expect(await days()).toEqual(expect.arrayContaining([day(30), day(29), day(0)]));
    expect(await pruneKeptMail(E.FILES, now)).toBe(0);
  });
});
