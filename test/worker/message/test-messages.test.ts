import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { dispatchQueue } from '../../../queues/dispatch';
import { createDb } from '../../../src/db/client';
import { QUEUE_MAX_DELIVERIES } from '../../../src/queue-names';
import { deliverMessage, rescueStalledMessages, SEND_KIND } from '../../../src/modules/message/send-message';
import { DEFAULT_LEASE_MS as SEND_LEASE_MS } from '../../../src/modules/sending/lease';
import { call, ledgerSql } from '../helpers';
import { orgLedger } from '../../../src/modules/ledger/registry';
import { ledgersWithPendingSingles, markSingleWritten, markSinglesChecked } from '../../../src/modules/ledger/singles';
import { channels, createTemplate, insertContact, insertField, insertAttribute, newOrg, recordingProviders, row, type Org } from '../channel-helpers';

type MessageRow = {
  status: string;
  is_test: number;
  type: string;
  from_address: string;
  from_name: string | null;
  to_address: string;
  subject: string | null;
  body: string;
  body_plain: string | null;
  external_id: string | null;
  sent_at: string | null;
  error: string | null;
  attempts: number;
  contact_id: number | null;
  template_id: number | null;
  sender_id: number | null;
};

async function setup() {
  const o = await newOrg();
  const ch = await channels(o);
  const email = await createTemplate(o, {
    type: 'email',
    name: 'Welcome',
    subject: 'Hi {{ contact.name }}',
    body: '<p>{{ contact.fields.city }} / {{ organization.name }}</p>',
    body_plain: 'City {{ contact.fields.city }}',
  });
  const city = await insertField(o.orgId, 'city', 'text');
  const contactId = await insertContact(o.orgId, 'Ann', [{ type: 'email', value: 'ann@example.com' }]);
  await insertAttribute(o.orgId, contactId, city.id, { text: 'Oslo' });
  return { o, ...ch, template: email, contactId };
}

async function sendTest(o: Org, templateId: number, json: Record<string, unknown>) {
  return o.api('POST', `/template/${templateId}/test`, json);
}

const deliver = (o: Org, messageId: number, attempt: number, providers: ReturnType<typeof recordingProviders>['providers']) =>
  deliverMessage(env, { orgId: o.orgId, messageId }, attempt, providers);

describe('send a test message', () => {
  it('queues a rendered test message, and the consumer sends it with attachments and records it sent', async () => {
    const { o, email, template, contactId, smtp } = await setup();
    const form = new FormData();
    form.append('file', new File([new Uint8Array([1, 2, 3, 4])], 'terms.pdf'));
    expect((await call(o.org, `/api/v1/template/${template.id}/attachment`, { method: 'POST', token: o.token, body: form })).status).toBe(201);

    const res = await sendTest(o, template.id, { sender_id: email.id, to: 'Tester@Example.com', contact_id: contactId });
    expect(res.status).toBe(202);
    const message = res.body.data;
    expect(message).toMatchObject({
      status: 'queued',
      is_test: true,
      type: 'email',
      from_address: 'hello@acme.test',
      from_name: 'Acme',
      to_address: 'tester@example.com',
      subject: 'Hi Ann',
      body: `<p>Oslo / ${o.org} Inc</p>`,
      body_plain: 'City Oslo',
      contact_id: contactId,
      template_id: template.id,
      sender_id: email.id,
    });

    const rec = recordingProviders([{ ok: true, externalId: '<42.abc@acme.test>' }]);
    await deliver(o, message.id, 1, rec.providers);
    expect(rec.opened).toEqual([{ type: 'smtp', integrationId: smtp.id, secret: 'smtp-password-Zq8!' }]);
    expect(rec.sent).toHaveLength(1);
    expect(rec.sent[0]).toMatchObject({
      id: message.id,
      from: { address: 'hello@acme.test', name: 'Acme' },
      to: 'tester@example.com',
      subject: 'Hi Ann',
      bodyPlain: 'City Oslo',
      html: true,
      returnPath: null,
    });
    // Test messages are tracked like broadcasts (the organisation's defaults): the content plus an open pixel.
    expect(rec.sent[0].body).toContain(`<p>Oslo / ${o.org} Inc</p>`);
    expect(rec.sent[0].body).toMatch(/<img\ssrc="http:\/\/[^"]+\/t\/o\/[\w.-]+"/);
    expect(rec.sent[0].attachments!.map((a) => ({ ...a, content: [...a.content] }))).toEqual([
      { filename: 'terms.pdf', contentType: 'application/pdf', content: [1, 2, 3, 4] },
    ]);
    const stored = await row<MessageRow>('messages', message.id);
    expect(stored).toMatchObject({ status: 'sent', external_id: '<42.abc@acme.test>', error: null, attempts: 1, is_test: 1 });
    expect(stored!.sent_at).toBeTruthy();
    const read = await o.api('GET', `/message/${message.id}`);
    expect(read.body.data).toMatchObject({ status: 'sent', external_id: '<42.abc@acme.test>' });

    // A redelivery of the same queue message sends nothing again.
    await deliver(o, message.id, 2, rec.providers);
    expect(rec.sent).toHaveLength(1);
    expect(rec.opened).toHaveLength(1);
  });

  it('sends text templates as SMS from phone senders and refuses email senders for them, as campaigns do', async () => {
    const { o, email, phone, twilio } = await setup();
    const text = await createTemplate(o, { type: 'text', name: 'Reminder', body: 'Hi {{ contact.name }}, see you' });
    let res = await sendTest(o, text.id, { sender_id: phone.id, to: '+15551234567' });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      type: 'sms',
      from_address: '+15005550006',
      from_name: null,
      to_address: '+15551234567',
      subject: null,
      body: 'Hi , see you',
    });
    const rec = recordingProviders([{ ok: true, externalId: 'SM123' }]);
    await deliver(o, res.body.data.id, 1, rec.providers);
    expect(rec.opened[0]).toMatchObject({ type: 'twilio', integrationId: twilio.id, secret: 'twilio-token-Kx7#' });
    expect(rec.sent[0]).toEqual({ id: res.body.data.id, from: { address: '+15005550006', name: null }, to: '+15551234567', body: 'Hi , see you' });
    expect((await row<MessageRow>('messages', res.body.data.id))!.external_id).toBe('SM123');

    // One rule with campaign entries and broadcasts: a text template goes out as SMS, so an email sender is refused.
    const before = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    res = await sendTest(o, text.id, { sender_id: email.id, to: 'x@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ sender_id: ['Text templates go out as SMS: choose a phone sender'] });
    const after = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
  });

  it('never sends a mail with a subject the user did not write: an html template without one is refused', async () => {
    const { o, email } = await setup();
    const before = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    const bare = await createTemplate(o, { type: 'html', name: 'Internal name', body: '<b>x</b>' });
    let res = await sendTest(o, bare.id, { sender_id: email.id, to: 'a@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ subject: ['This template has no subject: add one before it is sent by email'] });
    const after = await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages WHERE org_id = ?').bind(o.orgId).first<{ n: number }>();
    expect(after!.n).toBe(before!.n);
    const titled = await createTemplate(o, { type: 'html', name: 'Internal', subject: 'Hi {{ contact.name }}', body: '<b>x</b>' });
    res = await sendTest(o, titled.id, { sender_id: email.id, to: 'a@example.com' });
    expect(res.status).toBe(202);
    expect(res.body.data.subject).toBe('Hi');
  });

  it('refuses mismatched types, wrong address formats, blacklisted addresses and render errors, storing nothing', async () => {
    const { o, email, phone, template } = await setup();
    const html = await createTemplate(o, { type: 'html', name: 'Page', body: '<b>x</b>' });
    let res = await sendTest(o, html.id, { sender_id: phone.id, to: '+15551234567' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ sender_id: ['HTML templates are sent by email: choose an email sender'] });
    res = await sendTest(o, template.id, { sender_id: phone.id, to: '+15551234567' });
    expect(res.body.error.fields).toEqual({ sender_id: ['Email templates are sent by email: choose an email sender'] });
    res = await sendTest(o, template.id, { sender_id: email.id, to: '+15551234567' });
    expect(res.body.error.fields).toEqual({ to: ['Invalid email address. Please enter a valid email'] });
    const text = await createTemplate(o, { type: 'text', name: 'T', body: 'x' });
    res = await sendTest(o, text.id, { sender_id: phone.id, to: 'a@example.com' });
    expect(res.body.error.fields.to[0]).toMatch(/must start with '\+'/);
    res = await sendTest(o, template.id, {});
    expect(res.body.error.fields).toEqual({ sender_id: ['This field is required'], to: ['This field is required'] });
    res = await sendTest(o, template.id, { sender_id: 999999, to: 'a@example.com' });
    expect(res.body.error.fields).toEqual({ sender_id: ['Sender not found'] });

    await env.DB.prepare("INSERT INTO blacklist (org_id, type, value) VALUES (?, 'email', 'blocked@example.com'), (?, 'phone', '+15550009999')")
      .bind(o.orgId, o.orgId)
      .run();
    res = await sendTest(o, template.id, { sender_id: email.id, to: 'Blocked@Example.com' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ to: ['This address is on the blacklist; nothing is sent to it'] });
    res = await sendTest(o, text.id, { sender_id: phone.id, to: '+15550009999' });
    expect(res.body.error.fields.to).toEqual(['This address is on the blacklist; nothing is sent to it']);

    const broken = await createTemplate(o, { type: 'email', name: 'Broken', subject: 'ok', body: 'Hi {% include "nothing" %}' });
    res = await sendTest(o, broken.id, { sender_id: email.id, to: 'a@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields.body[0]).toMatch(/^body generation failed: /);
    const long = await createTemplate(o, { type: 'text', name: 'Long', body: '{% for i in (1..400) %}12345{% endfor %}' });
    res = await sendTest(o, long.id, { sender_id: phone.id, to: '+15551234567' });
    expect(res.body.error.fields.body[0]).toMatch(/1600 characters/);

    expect((await o.api('GET', '/message')).body.meta.total).toBe(0);
  });
});

describe('the send consumer', () => {
  /** A queued message straight in D1, so these tests do not race the queue's own delivery. */
  async function queued(o: Org, senderId: number, templateId: number | null = null) {
    const r = await (await ledgerSql(o.orgId))
      .prepare(
        "INSERT INTO messages (org_id, type, status, sender_id, template_id, from_address, to_address, subject, body) VALUES (?, 'email', 'queued', ?, ?, 'hello@acme.test', 'to@example.com', 'S', 'B') RETURNING id",
      )
      .bind(o.orgId, senderId, templateId)
      .first<{ id: number }>();
    return r!.id;
  }

  it('records a permanent error as failed without retrying', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    const rec = recordingProviders([{ ok: false, retryable: false, error: '550 5.1.1 mailbox unavailable' }]);
    await deliver(o, id, 1, rec.providers);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'failed', error: '550 5.1.1 mailbox unavailable', attempts: 1, sent_at: null });
    await deliver(o, id, 2, rec.providers);
    expect(rec.sent).toHaveLength(1);
  });

  it('throws on a retryable error so the queue retries, then sends; the last attempt marks it failed', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    const rec = recordingProviders([{ ok: false, retryable: true, error: '421 try later' }, new Error('connection reset'), { ok: true, externalId: 'ok-3' }]);
    await expect(deliver(o, id, 1, rec.providers)).rejects.toThrow(/421 try later/);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'queued', error: '421 try later', attempts: 1 });
    expect((await o.api('GET', `/message/${id}`)).body.data.status).toBe('queued');
    await expect(deliver(o, id, 2, rec.providers)).rejects.toThrow(/connection reset/);
    await deliver(o, id, 3, rec.providers);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'sent', external_id: 'ok-3', error: null, attempts: 3 });

    const last = await queued(o, email.id);
    const failing = recordingProviders([{ ok: false, retryable: true, error: 'timeout' }]);
    await deliver(o, last, QUEUE_MAX_DELIVERIES, failing.providers);
    expect(await row<MessageRow>('messages', last)).toMatchObject({ status: 'failed', error: 'timeout' });
  });

  it('counts claims in the row, so deliveries re-queued after a lease still reach the attempt limit', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    await (await ledgerSql(o.orgId))
      .prepare('UPDATE messages SET attempts = ? WHERE id = ?')
      .bind(QUEUE_MAX_DELIVERIES - 1, id)
      .run();
    const failing = recordingProviders([{ ok: false, retryable: true, error: 'timeout' }]);
    await deliver(o, id, 1, failing.providers); // the queue's own count restarts at 1 for a re-queued message
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'failed', error: 'timeout', attempts: QUEUE_MAX_DELIVERIES });
  });

  it('the cron queues again messages left sending past their lease, and only those', async () => {
    const { o, email } = await setup();
    const stuck = await queued(o, email.id);
    const busy = await queued(o, email.id);
    await (await ledgerSql(o.orgId))
      .prepare("UPDATE messages SET status = 'sending', updated_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - SEND_LEASE_MS - 1000).toISOString(), stuck)
      .run();
    await (await ledgerSql(o.orgId)).prepare("UPDATE messages SET status = 'sending', updated_at = ? WHERE id = ?").bind(new Date().toISOString(), busy).run();
    const sent: unknown[] = [];
    const queue = { sendBatch: async (batch: { body: unknown }[]) => void sent.push(...batch.map((m) => m.body)) } as unknown as Queue;
    expect(await rescueStalledMessages(createDb(env.DB), { ...env, SEND_QUEUE: queue })).toBe(1);
    expect(sent).toEqual([{ kind: SEND_KIND, orgId: o.orgId, messageId: stuck }]);
  });

  it('the watchdog asks only ledgers with single messages it has not seen finish, and never loses one written meanwhile', async () => {
    const { o, email, template } = await setup();
    const db = createDb(env.DB);
    const handle = (await orgLedger(env, db, o.orgId))!;
    const registry = () =>
      env.DB.prepare('SELECT singles_mark AS mark, singles_checked AS checked FROM ledgers WHERE org_id = ?')
        .bind(o.orgId)
        .first<{ mark: number; checked: number }>();
    const pending = async () => (await ledgersWithPendingSingles(db, 100_000)).find((p) => p.orgId === o.orgId);
    const rescue = async () => {
      const sent: { orgId: number; messageId: number }[] = [];
      const queue = {
        sendBatch: async (batch: { body: { orgId: number; messageId: number } }[]) => void sent.push(...batch.map((m) => m.body)),
      } as unknown as Queue;
      await rescueStalledMessages(db, { ...env, SEND_QUEUE: queue });
      return sent.filter((m) => m.orgId === o.orgId).map((m) => m.messageId);
    };
    const stale = new Date(Date.now() - SEND_LEASE_MS - 1000).toISOString();
    const setStatus = async (id: number, status: string, updatedAt = stale) =>
      (await ledgerSql(o.orgId)).prepare('UPDATE messages SET status = ?, updated_at = ? WHERE id = ?').bind(status, updatedAt, id).run();

    // A new ledger is asked once; with nothing unfinished it is checked and left alone.
    expect(await pending()).toBeDefined();
    expect(await rescue()).toEqual([]);
    expect(await pending()).toBeUndefined();

    // The route writes no mark any more (no shared D1 write per single message): the ledger's own watch looks after
    // its test messages (test/worker/transactional/lane.test.ts). The marks below are those a ledger move still writes.
    const before = (await registry())!.mark;
    const res = await sendTest(o, template.id, { sender_id: email.id, to: 'mark@example.com' });
    expect(res.status).toBe(202);
    expect((await registry())!.mark).toBe(before);
    // Out of the way of what follows, whatever the queue's own delivery of it is doing.
    await (await ledgerSql(o.orgId)).prepare('DELETE FROM messages WHERE id = ?').bind(res.body.data.id).run();

    // One left sending past its lease is queued again, and the ledger stays watched until it is done.
    const stuck = await queued(o, email.id);
    await markSingleWritten(db, handle);
    await setStatus(stuck, 'sending');
    expect(await rescue()).toEqual([stuck]);
    expect(await pending()).toBeDefined();
    await setStatus(stuck, 'sent');
    expect(await rescue()).toEqual([]);
    const checked = await registry();
    expect(checked!.checked).toBe(checked!.mark);

    // A ledger that is checked is not asked: a single left sending without its mark is not even seen.
    const unmarked = await queued(o, email.id);
    await setStatus(unmarked, 'sending');
    expect(await rescue()).toEqual([]);
    await setStatus(unmarked, 'sent');

    // The race: the watchdog read the mark, a single was written and marked, then the watchdog found nothing
    // unfinished (asked before the write) and records what it read: the ledger stays pending for the new one.
    await markSingleWritten(db, handle);
    const read = (await pending())!;
    const late = await queued(o, email.id);
    await markSingleWritten(db, handle);
    await markSinglesChecked(db, read);
    expect(await pending()).toBeDefined();
    await setStatus(late, 'sending');
    expect(await rescue()).toEqual([late]);
  });

  it('lets only one of two simultaneous deliveries send', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    const rec = recordingProviders([{ ok: true, externalId: 'once' }]);
    await Promise.all([deliver(o, id, 1, rec.providers), deliver(o, id, 1, rec.providers), deliver(o, id, 1, rec.providers)]);
    expect(rec.sent).toHaveLength(1);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('leaves a message another delivery is sending, and takes over once that claim has expired', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    await (await ledgerSql(o.orgId)).prepare("UPDATE messages SET status = 'sending', updated_at = ? WHERE id = ?").bind(new Date().toISOString(), id).run();
    const rec = recordingProviders([{ ok: true, externalId: 'later' }]);
    await deliver(o, id, 2, rec.providers);
    expect(rec.sent).toHaveLength(0);
    expect((await row<MessageRow>('messages', id))!.status).toBe('sending');
    await (await ledgerSql(o.orgId))
      .prepare('UPDATE messages SET updated_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - SEND_LEASE_MS - 1000).toISOString(), id)
      .run();
    await deliver(o, id, 3, rec.providers);
    expect(rec.sent).toHaveLength(1);
    expect((await row<MessageRow>('messages', id))!.status).toBe('sent');
  });

  it('skips (never sends to) an address blacklisted after the message was queued, with the reason', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    await env.DB.prepare("INSERT INTO blacklist (org_id, type, value) VALUES (?, 'email', 'to@example.com')").bind(o.orgId).run();
    const rec = recordingProviders();
    await deliver(o, id, 1, rec.providers);
    expect(rec.sent).toHaveLength(0);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'skipped', error: 'The address is on the blacklist' });
  });

  it('fails permanently when the sender is gone, and ignores another organisation in the body', async () => {
    const { o, email } = await setup();
    const other = await newOrg();
    const id = await queued(o, email.id);
    const rec = recordingProviders();
    // The organisation in the queue message scopes the lookup: another organisation's id finds nothing.
    await deliverMessage(env, { orgId: other.orgId, messageId: id }, 1, rec.providers);
    expect((await row<MessageRow>('messages', id))!.status).toBe('queued');
    await env.DB.prepare('DELETE FROM senders WHERE id = ?').bind(email.id).run();
    await deliver(o, id, 1, rec.providers);
    expect(await row<MessageRow>('messages', id)).toMatchObject({ status: 'failed', error: 'The sender of this message no longer exists' });
    expect(rec.opened).toHaveLength(0);
  });

  it('is wired to the send queue: the dispatcher runs it with the real transport and retries a refused connection', async () => {
    const { o, email } = await setup();
    const id = await queued(o, email.id);
    const message = { id: 'q1', timestamp: new Date(), attempts: 1, body: { kind: SEND_KIND, orgId: o.orgId, messageId: id }, ack: vi.fn(), retry: vi.fn() };
    await dispatchQueue({ queue: 'relay-send', messages: [message], ackAll() {}, retryAll() {} } as never, env);
    // The test integration points at 127.0.0.1:2525, where nothing listens.
    expect(message.retry).toHaveBeenCalledOnce();
    const stored = await row<MessageRow>('messages', id);
    expect(stored).toMatchObject({ status: 'queued', attempts: 1 });
    // The reason in plain words, naming where nothing listened (not just "some error").
    expect(stored!.error).toBe('The connection to 127.0.0.1:2525 was refused: no SMTP server is listening there, or a firewall blocks it.');
  });
});

describe('test messages and tenancy', () => {
  it("cannot use another organisation's template, sender or contact", async () => {
    const a = await setup();
    const b = await setup();
    let res = await sendTest(a.o, b.template.id, { sender_id: a.email.id, to: 'x@example.com' });
    expect(res.status).toBe(404);
    res = await sendTest(a.o, a.template.id, { sender_id: b.email.id, to: 'x@example.com' });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ sender_id: ['Sender not found'] });
    res = await sendTest(a.o, a.template.id, { sender_id: a.email.id, to: 'x@example.com', contact_id: b.contactId });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({ contact_id: ['Contact not found'] });
    expect((await a.o.api('GET', '/message')).body.meta.total).toBe(0);
  });
});
