// What became of a message as a person reads it (issue 35, finding 3): a hard bounce, a spam report and an
// undelivered SMS read as such in a broadcast's recipients and in the message list, not as "sent"; the `outcome`
// filter of both lists finds them, and its counts agree with the broadcast's figures. `status` keeps its values.
import { describe, expect, it } from 'vitest';
import { handleBounceMail } from '../../../src/modules/bounce/handle';
import { readBounceAddress } from '../../../src/modules/bounce/address';
import { arf, BOUNCING, bouncingBroadcast, bytes, dsn } from '../bounce/bounce-helpers';
import { deliverAll, runAlarm, setup, startable } from '../broadcast/run-helpers';
import { ledgerSql } from '../helpers';

type Listed = { items: { address?: string; to_address?: string; status: string; outcome: string }[]; meta: { total: number } };

describe('a message outcome', () => {
  it('reads a hard bounce as bounced and a spam report as complained, and filters by them with counts that match the overview', async () => {
    const s = await bouncingBroadcast('oc');
    const report = async (address: string, raw: string) => {
      const to = s.to(address).returnPath!;
      expect(await readBounceAddress(BOUNCING, to)).not.toBeNull();
      await handleBounceMail(BOUNCING, { from: 'MAILER-DAEMON@mx.example.net', to, raw: bytes(raw) });
    };
    await report('cat@example.com', dsn('cat@example.com', '5.1.1'));
    await report('ann@example.com', arf('ann@example.com'));
    await report('dan@example.com', dsn('dan@example.com', '4.2.2'));

    const recipients = async (query = '') => (await s.o.api('GET', `/broadcast/${s.id}/recipients${query}`)).body as Listed;
    const all = await recipients();
    // Bob has no email address: skipped, as before.
    expect(all.items.filter((r) => r.outcome === 'skipped').map((r) => r.status)).toEqual(['skipped']);
    expect(
      all.items
        .filter((r) => r.status === 'sent')
        .map((r) => [r.address, r.status, r.outcome])
        .sort(),
    ).toEqual([
      ['ann@example.com', 'sent', 'complained'],
      ['cat@example.com', 'sent', 'bounced'],
      // A soft bounce is not the end of the road: it stays sent (its report is on the message).
      ['dan@example.com', 'sent', 'sent'],
    ]);
    // The old status filter means what it did: every message that went out.
    expect((await recipients('?status=sent')).meta.total).toBe(3);

    const b = (await s.o.api('GET', `/broadcast/${s.id}`)).body.data;
    const bounced = await recipients('?outcome=bounced');
    const complained = await recipients('?outcome=complained');
    const sent = await recipients('?outcome=sent');
    expect(bounced.items.map((r) => r.address)).toEqual(['cat@example.com']);
    expect(complained.items.map((r) => r.address)).toEqual(['ann@example.com']);
    expect(sent.items.map((r) => r.address)).toEqual(['dan@example.com']);
    // The overview's figures: Bounces and Complaints are the filters' counts; Sent is what went out, all three.
    expect([bounced.meta.total, complained.meta.total]).toEqual([b.engagement.bounces, b.engagement.complaints]);
    expect(sent.meta.total + bounced.meta.total + complained.meta.total).toBe(b.sent);

    // The message list says and filters the same.
    const messages = async (query: string) => (await s.o.api('GET', `/message?broadcast_id=${s.id}${query}`)).body as Listed;
    expect((await messages('&status=sent')).items.map((m) => [m.to_address, m.outcome]).sort()).toEqual([
      ['ann@example.com', 'complained'],
      ['cat@example.com', 'bounced'],
      ['dan@example.com', 'sent'],
    ]);
    expect((await messages('&outcome=bounced')).items.map((m) => m.to_address)).toEqual(['cat@example.com']);
    expect((await messages('&outcome=complained')).meta.total).toBe(1);
    expect((await messages('&outcome=sent')).items.map((m) => m.to_address)).toEqual(['dan@example.com']);
    const one = (await messages('&outcome=bounced')).items[0] as unknown as { id: number };
    expect((await s.o.api('GET', `/message/${one.id}`)).body.data).toMatchObject({ status: 'sent', outcome: 'bounced', delivery_status: 'bounced' });

    // A value the filter does not know is a 422 with the field's message, not an empty list.
    const bad = await s.o.api('GET', `/message?outcome=lost`);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('outcome must be');
    expect((await s.o.api('GET', `/broadcast/${s.id}/recipients?outcome=lost`)).status).toBe(422);
  });

  it('reads an SMS the carrier did not deliver as undelivered, and one delivered as sent', async () => {
    const s = await setup('ou');
    const id = await startable(s.o, s.body({ type: 'phone', sender_id: s.ch.phone.id, template_id: s.text.id }));
    await deliverAll(await runAlarm(s.o, id));
    // The provider's reports, as the status callbacks write them (test/worker/sms-hooks covers the callbacks).
    const ledger = await ledgerSql(s.o.orgId);
    for (const [phone, report] of [
      ['+15550000001', 'delivered'],
      ['+15550000002', 'undelivered'],
    ])
      await ledger
        .prepare(
          "UPDATE messages SET delivery_status = ?, delivery_error_code = ? WHERE org_id = ? AND broadcast_id = ? AND to_address = ? AND status = 'sent'",
        )
        .bind(report, report === 'undelivered' ? '30003' : null, s.o.orgId, id, phone)
        .run();

    const recipients = ((await s.o.api('GET', `/broadcast/${id}/recipients?status=sent`)).body as Listed).items;
    expect(recipients.map((r) => [r.address, r.outcome]).sort()).toEqual([
      ['+15550000001', 'sent'],
      ['+15550000002', 'undelivered'],
    ]);
    const undelivered = (await s.o.api('GET', `/message?type=sms&outcome=undelivered&broadcast_id=${id}`)).body as Listed;
    expect(undelivered.items.map((m) => m.to_address)).toEqual(['+15550000002']);
    expect(((await s.o.api('GET', `/broadcast/${id}/recipients?outcome=sent`)).body as Listed).items.map((r) => r.address)).toEqual(['+15550000001']);
  });
});
