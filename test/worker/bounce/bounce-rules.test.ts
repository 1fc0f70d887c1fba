// What bounces and complaints change and what they leave alone (src/modules/bounce): reports with several recipients
// or oversized, soft bounces counted up to the organisation's limit, the suppression on the contact and lifting it
// (activity log), the day's counts on the dashboard, and one organisation's reports never touching another's.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { handleBounceMail, KEPT_BYTES, KEPT_PREFIX } from '../../../src/modules/bounce/handle';
import { receiveBounceMail } from '../../../src/modules/bounce/receive';
import { readBounceReport } from '../../../src/modules/bounce/report';
import { SKIP_REASONS } from '../../../src/shared/contracts/broadcast';
import { SOFT_BOUNCE_LIMIT_MESSAGE } from '../../../src/shared/contracts/account';
import { row } from '../channel-helpers';
import { deliverAll, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { operator } from '../signup/helpers';
import { arf, blacklisted, BOUNCING, bouncingBroadcast, bytes, dsn, sendBouncing } from './bounce-helpers';

/** A DSN about two recipients (an alias that expanded): one delivered, one failed. */
const TWO_RECIPIENTS = `From: MAILER-DAEMON@mx.example.net
To: whoever
Subject: Delivery Status Notification
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="m2"

--m2
Content-Type: text/plain

Delivery to one of the recipients failed.

--m2
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Final-Recipient: rfc822; team-lead@example.com
Action: delivered
Status: 2.0.0

Final-Recipient: rfc822; team-old@example.com
Action: failed
Status: 5.1.1
Diagnostic-Code: smtp; 550 5.1.1 No such user

--m2--
`;

const stream = (data: ArrayBuffer) => new Response(data).body!;
const receive = (to: string, data: ArrayBuffer) =>
  receiveBounceMail({ from: 'MAILER-DAEMON@x', to, raw: stream(data), rawSize: data.byteLength } as unknown as ForwardableEmailMessage, BOUNCING);

const reasons = (orgId: number) =>
  env.DB.prepare('SELECT value, reason, message_id FROM blacklist WHERE org_id = ? ORDER BY value')
    .bind(orgId)
    .all<{ value: string; reason: string | null; message_id: number | null }>()
    .then((r) => r.results);

/** The message id a bounce address names (its second part, base 36). */
const messageOf = (returnPath: string) => parseInt(/^b-[0-9a-z]+-([0-9a-z]+)-/.exec(returnPath)![1], 36);

describe('reports that are not one plain bounce', () => {
  it('takes the failed recipient of a report about several, and a report with no failure changes nothing', async () => {
    expect(await readBounceReport(bytes(TWO_RECIPIENTS))).toMatchObject({ kind: 'bounce', hard: true, status: '5.1.1', recipient: 'team-old@example.com' });
    const delayed = dsn('dan@example.com', '4.4.7', 'delayed');
    const s = await bouncingBroadcast('bm');
    const dan = s.to('dan@example.com');
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: dan.returnPath!, raw: bytes(delayed) })).toBe('ignored');
    expect(await row('messages', messageOf(dan.returnPath!))).toMatchObject({ delivery_status: null });
    expect(await blacklisted(s.o.orgId)).toEqual([]);
  });

  it('reads an oversized bounce up to its first megabyte, and keeps an oversized unknown mail cut to the cap', async () => {
    const s = await bouncingBroadcast('bz');
    const cat = s.to('cat@example.com');
    // The DSN with 3 MB of the original message after it: the report comes first and is read.
    const big = dsn('cat@example.com', '5.1.1').replace('--b1--', `--b1\nContent-Type: text/plain\n\n${'x'.repeat(3 * 1024 * 1024)}\n--b1--`);
    await receive(cat.returnPath!, bytes(big));
    expect(await reasons(s.o.orgId)).toEqual([{ value: 'cat@example.com', reason: 'bounce', message_id: expect.any(Number) }]);

    const before = (await env.FILES.list({ prefix: KEPT_PREFIX })).objects.length;
    await receive(s.to('dan@example.com').returnPath!, bytes(`From: a@b\nSubject: Big\n\n${'y'.repeat(2 * 1024 * 1024)}`));
    const kept = (await env.FILES.list({ prefix: KEPT_PREFIX, include: ['customMetadata'] })).objects;
    expect(kept.length - before).toBe(1);
    const newest = kept.sort((a, b) => b.uploaded.getTime() - a.uploaded.getTime())[0];
    expect(newest.size).toBe(KEPT_BYTES);
    // What arrived is noted (read up to the handler's megabyte), and the operator lists it.
    expect(Number(newest.customMetadata?.bytes)).toBe(1024 * 1024);
    const listed = await operator('GET', '/unrecognised-mail?limit=1000');
    expect(listed.status).toBe(200);
    const item = listed.body.data.items.find((i: { key: string }) => KEPT_PREFIX + i.key === newest.key);
    expect(item).toMatchObject({ stored_bytes: KEPT_BYTES, bytes: 1024 * 1024, why: expect.any(String) });
    const raw = await operator('GET', `/unrecognised-mail/${item.key}`);
    expect(raw.status).toBe(200);
    expect((await operator('GET', '/unrecognised-mail/..%2F..%2Fsecrets/x.eml')).status).toBe(404);
    expect(await blacklisted(s.o.orgId)).toEqual([{ value: 'cat@example.com', info: expect.stringMatching(/^Hard bounce 5\.1\.1/) }]);
  });
});

describe('soft bounces', () => {
  it("suppress an address at the organisation's limit, counting each message once", async () => {
    const s = await bouncingBroadcast('bs');
    expect((await s.o.api('PUT', '/organization', { name: 'Soft', soft_bounce_limit: 0 })).status).toBe(422);
    const put = await s.o.api('PUT', '/organization', { name: 'Soft', soft_bounce_limit: 2, soft_bounce_days: 7 });
    expect(put.status, put.text).toBe(200);
    expect(put.body.data).toMatchObject({ soft_bounce_limit: 2, soft_bounce_days: 7 });
    expect((await s.o.api('PUT', '/organization', { name: 'Soft', soft_bounce_days: 1000 })).body.error.fields.soft_bounce_days).toBeTruthy();
    expect((await s.o.api('PUT', '/organization', { name: 'Soft', soft_bounce_limit: 2.5 })).body.error.fields.soft_bounce_limit).toEqual([
      SOFT_BOUNCE_LIMIT_MESSAGE,
    ]);

    const first = s.to('dan@example.com').returnPath!;
    const full = bytes(dsn('dan@example.com', '4.2.2'));
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: first, raw: full })).toBe('soft_bounced');
    // The same message's bounce again (the server retried) is not a second soft bounce.
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: first, raw: full })).toBe('soft_bounced');
    expect(await reasons(s.o.orgId)).toEqual([]);

    const next = await sendBouncing(s, { name: 'Second' });
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: next.to('dan@example.com').returnPath!, raw: full })).toBe('soft_bounced');
    const danSecond = messageOf(next.to('dan@example.com').returnPath!);
    expect(await reasons(s.o.orgId)).toEqual([{ value: 'dan@example.com', reason: 'soft_bounces', message_id: danSecond }]);

    // The third broadcast skips Dan with the suppression's own reason, and no one else with an address (Bob has none).
    const third = await startable(s.o, s.body({ name: 'Third' }));
    await runAlarm(s.o, third);
    const skipped = (await s.o.api('GET', `/broadcast/${third}/recipients?status=skipped`)).body.items;
    expect(skipped.filter((r: { address: string }) => r.address).map((r: { address: string; reason: string }) => [r.address, r.reason])).toEqual([
      ['dan@example.com', SKIP_REASONS.softBounced],
    ]);

    // Deleted on the blacklist page (not lifted on the contact), the address starts its soft bounces again: its next
    // one alone does not put it back.
    const [entry] = (await s.o.api('GET', '/blacklist')).body.items;
    expect(entry).toMatchObject({ value: 'dan@example.com', reason: 'soft_bounces' });
    expect((await s.o.api('DELETE', `/blacklist/${entry.id}`)).status).toBe(200);
    const fourth = await sendBouncing(s, { name: 'Fourth' });
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: fourth.to('dan@example.com').returnPath!, raw: full })).toBe('soft_bounced');
    expect(await reasons(s.o.orgId)).toEqual([]);
  });
});

describe('a refusal during the SMTP session', () => {
  it('suppresses a mailbox the server refused for good, and not one refused for policy or for now', async () => {
    const s = await setup('br');
    const id = await startable(s.o, s.body());
    // Ann, Cat, Dan in contact order: Cat's mailbox does not exist; Dan's mail is refused for policy.
    const rec = await deliverAll(await runAlarm(s.o, id), [
      { ok: true, externalId: 'x' },
      { ok: false, retryable: false, error: 'The server refused the recipient <cat@example.com>: 550 5.1.1 No such user here', cause: 'mailbox' },
      { ok: false, retryable: false, error: 'The server refused the recipient <dan@example.com>: 550 5.7.1 Message refused by policy' },
    ]);
    expect(rec.sent.map((m) => m.to)).toEqual(['ann@example.com', 'cat@example.com', 'dan@example.com']);
    const catMessage = rec.sent[1].id;
    expect(await reasons(s.o.orgId)).toEqual([{ value: 'cat@example.com', reason: 'bounce', message_id: catMessage }]);
    const next = await startable(s.o, s.body({ name: 'Next' }));
    await runAlarm(s.o, next);
    const skipped = (await s.o.api('GET', `/broadcast/${next}/recipients?status=skipped`)).body.items;
    expect(skipped.filter((r: { address: string }) => r.address).map((r: { address: string; reason: string }) => [r.address, r.reason])).toEqual([
      ['cat@example.com', SKIP_REASONS.bounced],
    ]);
  });
});

describe("a contact's suppression", () => {
  it('shows on the contact with its reason and message, and lifting it (logged) mails the address again', async () => {
    const s = await bouncingBroadcast('bl');
    const cat = s.to('cat@example.com').returnPath!;
    await handleBounceMail(BOUNCING, { from: 'x@y', to: cat, raw: bytes(dsn('cat@example.com', '5.1.1')) });
    await handleBounceMail(BOUNCING, { from: 'x@y', to: s.to('ann@example.com').returnPath!, raw: bytes(arf('ann@example.com')) });
    const catMessage = messageOf(cat);

    const shown = (await s.o.api('GET', `/contact/${s.people.cat}/unsubscribes`)).body.data.suppressions;
    expect(shown).toEqual([
      {
        id: expect.any(Number),
        type: 'email',
        value: 'cat@example.com',
        reason: 'bounce',
        info: `Hard bounce 5.1.1 (message ${catMessage})`,
        message_id: catMessage,
        created_at: expect.any(String),
      },
    ]);
    const annShown = (await s.o.api('GET', `/contact/${s.people.ann}/unsubscribes`)).body.data;
    expect(annShown.suppressions.map((x: { reason: string }) => x.reason)).toEqual(['complaint']);
    expect(annShown.unsubscribes.map((u: { source: string }) => u.source)).toEqual(['complaint']);

    // Another contact's entry, a malformed id, an unknown one: 404, nothing lifted.
    expect((await s.o.api('DELETE', `/contact/${s.people.dan}/suppressions/${shown[0].id}`)).status).toBe(404);
    expect((await s.o.api('DELETE', `/contact/${s.people.cat}/suppressions/abc`)).status).toBe(404);
    expect((await s.o.api('DELETE', `/contact/${s.people.cat}/suppressions/99999999`)).status).toBe(404);
    // Another organisation cannot lift it.
    const other = await setup('bl2');
    expect((await other.o.api('DELETE', `/contact/${s.people.cat}/suppressions/${shown[0].id}`)).status).toBe(404);
    expect(await reasons(s.o.orgId)).toHaveLength(2);

    expect((await s.o.api('DELETE', `/contact/${s.people.cat}/suppressions/${shown[0].id}`)).status).toBe(204);
    expect((await s.o.api('GET', `/contact/${s.people.cat}/unsubscribes`)).body.data.suppressions).toEqual([]);
    const log = await env.DB.prepare("SELECT field, previous_value, new_value FROM activity_log WHERE org_id = ? AND entity = 'contact' AND entity_id = ?")
      .bind(s.o.orgId, s.people.cat)
      .all();
    expect(log.results).toEqual([{ field: 'suppression: cat@example.com', previous_value: `Hard bounce 5.1.1 (message ${catMessage})`, new_value: 'lifted' }]);

    // The next broadcast mails Cat again; Ann stays suppressed (the complaint); Bob has no address.
    const next = await startable(s.o, s.body({ name: 'Next' }));
    await runAlarm(s.o, next);
    const skipped = (await s.o.api('GET', `/broadcast/${next}/recipients?status=skipped`)).body.items;
    expect(skipped.filter((r: { address: string }) => r.address).map((r: { address: string; reason: string }) => [r.address, r.reason])).toEqual([
      ['ann@example.com', SKIP_REASONS.complained],
    ]);
  });
});

describe('the day and the other organisation', () => {
  it("counts bounces and complaints on the dashboard, and A's reports never touch B's contacts, lists or counts", async () => {
    const a = await bouncingBroadcast('ta');
    const b = await bouncingBroadcast('tb');
    await handleBounceMail(BOUNCING, { from: 'x@y', to: a.to('cat@example.com').returnPath!, raw: bytes(dsn('cat@example.com', '5.1.1')) });
    await handleBounceMail(BOUNCING, { from: 'x@y', to: a.to('ann@example.com').returnPath!, raw: bytes(arf('ann@example.com')) });

    const week = (await a.o.api('GET', '/dashboard')).body.data.week;
    expect(week).toMatchObject({ bounces: 1, complaints: 1 });
    // B has the same addresses and contacts' names: none of it moved.
    expect((await b.o.api('GET', '/dashboard')).body.data.week).toMatchObject({ bounces: 0, complaints: 0 });
    expect(await reasons(b.o.orgId)).toEqual([]);
    expect((await b.o.api('GET', `/broadcast/${b.id}`)).body.data.engagement).toMatchObject({ bounces: 0, complaints: 0, unsubscribes: 0 });
    expect((await b.o.api('GET', `/contact/${b.people.ann}/unsubscribes`)).body.data).toMatchObject({ unsubscribes: [], suppressions: [] });
    // A's bounce address carrying B's organisation does not verify: kept, nothing changed.
    const swapped = a.to('cat@example.com').returnPath!.replace(/^b-[0-9a-z]+-/, `b-${b.o.orgId.toString(36)}-`);
    expect(await handleBounceMail(BOUNCING, { from: 'x@y', to: swapped, raw: bytes(dsn('cat@example.com', '5.1.1')) })).toBe('kept');
    expect(await reasons(b.o.orgId)).toEqual([]);
  });
});
