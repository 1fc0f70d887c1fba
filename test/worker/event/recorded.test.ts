// Each event type is recorded with its change and not without it (src/modules/event; ledger step 14 and migration
// 0029): D1's changes through the API and the real write paths, the ledger's through statements on its tables as
// the sending, tracking and broadcast code writes them.
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createDb } from '../../../src/db/client';
import { twilioSignature } from '../../../src/lib/sms/twilio-signature';
import { twilioHookUrl } from '../../../src/modules/sms-hooks/urls';
import { resubscribe, unsubscribe } from '../../../src/modules/unsubscribe/store';
import { createIntegration, newOrg, TWILIO_INPUT, type Org } from '../channel-helpers';
import { callHost, ledgerSql } from '../helpers';
import { allEvents, eventsOfType } from './helpers';

const types = async (o: Org) => (await allEvents(o)).map((e) => e.type);

describe("D1's events", () => {
  it('contact.created, .updated (the contact as it is) and .deleted through the contact API', async () => {
    const o = await newOrg('evc');
    const tag = (await o.api('POST', '/tag', { name: 'VIP' })).body.data;
    const made = await o.api('POST', '/contact', { name: 'Ann', note: 'hi', addresses: [{ type: 'email', value: 'ann@example.com' }], tags: [tag.id] });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.id;
    const [created] = await eventsOfType(o, 'contact.created');
    expect(created.data).toEqual({ contact: { id, name: 'Ann', note: 'hi', emails: ['ann@example.com'], phones: [], tags: ['VIP'], attributes: [] } });
    // A read changes nothing.
    await o.api('GET', `/contact/${id}`);
    expect(await types(o)).toEqual(['contact.created']);
    const updated = await o.api('PATCH', `/contact/${id}`, { name: 'Ann B', addresses: [{ type: 'phone', value: '+15550001111' }] });
    expect(updated.status, updated.text).toBe(200);
    const updates = await eventsOfType(o, 'contact.updated');
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.at(-1)!.data).toMatchObject({ contact: { id, name: 'Ann B', phones: ['+15550001111'], emails: [] } });
    expect((await o.api('DELETE', `/contact/${id}`)).status).toBe(200);
    const [deleted] = await eventsOfType(o, 'contact.deleted');
    expect(deleted.data).toEqual({ contact: { id, name: 'Ann B', emails: [], phones: ['+15550001111'] } });
  });

  it('a contact deleted before its created event was absorbed is named gone', async () => {
    const o = await newOrg('evg');
    const contact = await env.DB.prepare("INSERT INTO contacts (org_id, name) VALUES (?, 'Gone') RETURNING id").bind(o.orgId).first<{ id: number }>();
    await env.DB.prepare('DELETE FROM contacts WHERE id = ?').bind(contact!.id).run();
    const events = await allEvents(o);
    expect(events.map((e) => e.type)).toEqual(['contact.created', 'contact.deleted']);
    expect(events[0].data).toEqual({ contact: { id: contact!.id }, gone: true });
  });

  it('contact.unsubscribed and .resubscribed once each; a repeat changes nothing and records nothing', async () => {
    const o = await newOrg('evu');
    const contact = (await o.api('POST', '/contact', { name: 'Bo', addresses: [{ type: 'email', value: 'bo@example.com' }] })).body.data;
    const category = (await o.api('POST', '/subscription', { name: 'News' })).body.data;
    const db = createDb(env.DB);
    const who = { orgId: o.orgId, contactId: contact.id, messageId: null, broadcastId: null };
    const leave = { subscriptionId: category.id, reason: null, comment: null, source: 'page' as const };
    expect((await unsubscribe(db, who, leave)).changed).toBe(true);
    expect((await unsubscribe(db, who, leave)).changed).toBe(false);
    const [unsubscribed] = await eventsOfType(o, 'contact.unsubscribed');
    expect(unsubscribed.data).toEqual({
      contact_id: contact.id,
      subscription_id: category.id,
      message_id: null,
      broadcast_id: null,
      reason: null,
      source: 'page',
    });
    expect(await eventsOfType(o, 'contact.unsubscribed')).toHaveLength(1);
    // The console's resubscribe, then again: 404, nothing more.
    expect((await o.api('DELETE', `/contact/${contact.id}/unsubscribes/${category.id}`)).status).toBe(204);
    expect((await o.api('DELETE', `/contact/${contact.id}/unsubscribes/${category.id}`)).status).toBe(404);
    expect((await resubscribe(db, who, category.id)).changed).toBe(false);
    const again = await eventsOfType(o, 'contact.resubscribed');
    expect(again.map((e) => e.data)).toEqual([{ contact_id: contact.id, subscription_id: category.id }]);
  });

  it('contact.suppressed and .unsuppressed through the blacklist API, naming the contact with the address', async () => {
    const o = await newOrg('evs');
    const contact = (await o.api('POST', '/contact', { name: 'Cy', addresses: [{ type: 'email', value: 'cy@example.com' }] })).body.data;
    const entry = await o.api('POST', '/blacklist', { type: 'email', value: 'CY@example.com' });
    expect(entry.status, entry.text).toBe(201);
    expect((await o.api('POST', '/blacklist', { type: 'email', value: 'cy@example.com' })).status).not.toBe(201);
    const [suppressed] = await eventsOfType(o, 'contact.suppressed');
    expect(suppressed.data).toEqual({ address: { type: 'email', value: 'cy@example.com' }, contact_id: contact.id, reason: null, message_id: null });
    expect(await eventsOfType(o, 'contact.suppressed')).toHaveLength(1);
    expect((await o.api('DELETE', `/blacklist/${entry.body.data.id}`)).status).toBe(200);
    const [lifted] = await eventsOfType(o, 'contact.unsuppressed');
    expect(lifted.data).toEqual({ address: { type: 'email', value: 'cy@example.com' }, contact_id: contact.id });
  });

  it('sms.received for every inbound message; sms.opted_out on STOP and sms.opted_in on START, only when they change', async () => {
    const o = await newOrg('evm');
    const twilio = await createIntegration(o, TWILIO_INPUT);
    const contact = (await o.api('POST', '/contact', { name: 'Di', addresses: [{ type: 'phone', value: '+15550002222' }] })).body.data;
    const inbound = async (body: string) => {
      const params = new URLSearchParams({
        AccountSid: TWILIO_INPUT.sid,
        MessageSid: `SM${body}${Math.random()}`,
        From: '+15550002222',
        To: '+15005550006',
        Body: body,
      });
      const url = twilioHookUrl(env, twilio.id, 'inbound');
      const res = await callHost(new URL(env.PUBLIC_URL).host, new URL(url).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': await twilioSignature(TWILIO_INPUT.token, url, params) },
        body: params.toString(),
      });
      expect(res.status).toBe(200);
      return params.get('MessageSid');
    };
    const sid = await inbound('hello there');
    await inbound('STOP');
    await inbound('STOP');
    await inbound('START');
    const events = await allEvents(o);
    expect(events.filter((e) => e.type.startsWith('sms.')).map((e) => e.type)).toEqual([
      'sms.received',
      'sms.opted_out',
      'sms.received',
      'sms.received',
      'sms.opted_in',
      'sms.received',
    ]);
    expect(events.find((e) => e.type === 'sms.received')!.data).toEqual({
      from: '+15550002222',
      to: '+15005550006',
      body: 'hello there',
      integration_id: twilio.id,
      contact_id: contact.id,
      provider_id: sid,
    });
    expect(events.find((e) => e.type === 'sms.opted_out')!.data).toEqual({
      phone: '+15550002222',
      keyword: 'STOP',
      integration_id: twilio.id,
      contact_id: contact.id,
    });
    expect(events.find((e) => e.type === 'sms.opted_in')!.data).toEqual({ phone: '+15550002222', contact_id: contact.id });
  });
});

describe("the ledger's events", () => {
  async function message(o: Org, isTest = 0) {
    const ledger = await ledgerSql(o.orgId);
    const row = await ledger
      .prepare(
        `INSERT INTO messages (org_id, type, status, from_address, to_address, subject, body, is_test, metadata)
         VALUES (?, 'email', 'queued', 'hello@acme.test', 'eve@example.com', 'Hi', '', ?, '{"order":"42"}') RETURNING id`,
      )
      .bind(o.orgId, isTest)
      .first<{ id: number }>();
    return { ledger, id: row!.id };
  }

  it('message.sent and .failed when the status moves there, once; a test message makes none', async () => {
    const o = await newOrg('evl');
    const { ledger, id } = await message(o);
    expect(await types(o)).toEqual([]);
    await ledger.prepare("UPDATE messages SET status = 'sent' WHERE id = ?").bind(id).run();
    await ledger.prepare("UPDATE messages SET status = 'sent' WHERE id = ?").bind(id).run();
    const [sent] = await eventsOfType(o, 'message.sent');
    expect(sent.data).toEqual({
      message: {
        id,
        channel: 'email',
        broadcast_id: null,
        contact_id: null,
        sender_id: null,
        template_id: null,
        to: 'eve@example.com',
        subject: 'Hi',
        api_key_id: null,
      },
      metadata: { order: '42' },
      error: null,
    });
    const failed = await message(o);
    await ledger.prepare("UPDATE messages SET status = 'failed', error = 'Refused' WHERE id = ?").bind(failed.id).run();
    expect((await eventsOfType(o, 'message.failed')).map((e) => e.data.error)).toEqual(['Refused']);
    const test = await message(o, 1);
    await ledger.prepare("UPDATE messages SET status = 'sent', delivery_status = 'bounced' WHERE id = ?").bind(test.id).run();
    expect(await types(o)).toEqual(['message.sent', 'message.failed']);
  });

  it('message.bounced (hard or soft), .complained, sms.delivered and .undelivered when the delivery status moves', async () => {
    const o = await newOrg('evd');
    const { ledger, id } = await message(o);
    const set = (status: string) => ledger.prepare('UPDATE messages SET delivery_status = ? WHERE id = ?').bind(status, id).run();
    await set('soft_bounced');
    await set('soft_bounced');
    await set('bounced');
    await set('complained');
    await set('delivered');
    await set('undelivered');
    const events = await allEvents(o);
    expect(events.map((e) => e.type)).toEqual(['message.bounced', 'message.bounced', 'message.complained', 'sms.delivered', 'sms.undelivered']);
    expect(events.map((e) => e.data.bounce)).toEqual(['soft', 'hard', null, null, null]);
  });

  it('message.opened and .clicked for each tracking hit, with the link and the class; none for a test message', async () => {
    const o = await newOrg('evh');
    const { ledger, id } = await message(o);
    const hit = (messageId: number, kind: string, cls: string, url: string | null) =>
      ledger
        .prepare(
          `INSERT INTO tracking_events (id, org_id, message_id, kind, link_index, url, class, reason, method, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'browser', 'GET', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
        )
        .bind(crypto.randomUUID(), o.orgId, messageId, kind, url ? 0 : null, url, cls)
        .run();
    await hit(id, 'open', 'prefetch', null);
    await hit(id, 'click', 'human', 'https://example.com/a');
    const test = await message(o, 1);
    await hit(test.id, 'click', 'human', 'https://example.com/b');
    const events = await allEvents(o);
    expect(events.map((e) => [e.type, e.data.url, e.data.human, e.data.class])).toEqual([
      ['message.opened', null, false, 'prefetch'],
      ['message.clicked', 'https://example.com/a', true, 'human'],
    ]);
  });

  it('broadcast.started, .paused, .resumed, .finished and .cancelled as the status moves, not on other changes', async () => {
    const o = await newOrg('evb');
    const ledger = await ledgerSql(o.orgId);
    const status = (id: number, s: string) => ledger.prepare('UPDATE broadcasts SET status = ? WHERE id = ?').bind(s, id).run();
    await ledger
      .prepare("INSERT INTO broadcasts (id, org_id, name, type, status, contacts) VALUES (900001, ?, 'Launch', 'email', 'draft', '{}')")
      .bind(o.orgId)
      .run();
    await status(900001, 'sending');
    await ledger.prepare('UPDATE broadcasts SET sent = sent + 1 WHERE id = 900001').run();
    await status(900001, 'paused');
    await status(900001, 'sending');
    await status(900001, 'finished');
    await ledger
      .prepare("INSERT INTO broadcasts (id, org_id, name, type, status, contacts) VALUES (900002, ?, 'Other', 'email', 'sending', '{}')")
      .bind(o.orgId)
      .run();
    await status(900002, 'cancelled');
    const events = await allEvents(o);
    expect(events.map((e) => [e.type, (e.data.broadcast as { id: number }).id])).toEqual([
      ['broadcast.started', 900001],
      ['broadcast.paused', 900001],
      ['broadcast.resumed', 900001],
      ['broadcast.finished', 900001],
      ['broadcast.started', 900002],
      ['broadcast.cancelled', 900002],
    ]);
    expect(events[3].data.broadcast).toMatchObject({ name: 'Launch', channel: 'email', status: 'finished', sent: 1 });
  });
});
