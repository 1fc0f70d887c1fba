import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { deliverMessage } from '../../../src/modules/message/send-message';
import { call, ledgerSql } from '../helpers';
import { channels, createTemplate, insertContact, newOrg, recordingProviders, type Org } from '../channel-helpers';

// POST /send and /send/batch (src/modules/transactional) through the real app and the organisation's ledger; the
// queue's delivery is run here with a recording transport (deliverMessage: the same claim, compose and record as the
// transactional queue's consumer), so what the provider would be handed is checked field by field.

async function setup() {
  const o = await newOrg('tx');
  const ch = await channels(o);
  const reset = await createTemplate(o, {
    type: 'html',
    name: 'Password reset',
    subject: 'Reset for {{ contact.name | default: "you" }}',
    body: '<p>Hello {{ data.name | default: "there" }}, your link: <a href="{{ data.link }}">reset</a> {{ data.code }}</p>',
  });
  const sms = await createTemplate(o, { type: 'text', name: 'Code', body: 'Your code is {{ data.code }}' });
  return { o, ...ch, reset, sms };
}

const messageCount = async (o: Org) => (await (await ledgerSql(o.orgId)).prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n;

async function deliver(o: Org, id: number) {
  const rec = recordingProviders();
  await deliverMessage(env, { orgId: o.orgId, messageId: id }, 1, rec.providers);
  return rec;
}

const post = (o: Org, path: string, json: unknown, headers: Record<string, string> = {}) =>
  call(o.org, `/api/v1${path}`, { method: 'POST', token: o.token, json, headers }).then(async (res) => ({
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as any,
  }));

describe('POST /send', () => {
  it('sends a template with data to an address that is no contact: 202 at once, then rendered, transactional, untracked by unsubscribe', async () => {
    const s = await setup();
    const res = await post(s.o, '/send', {
      to: 'Person@Example.com',
      sender_id: s.email.id,
      template_id: s.reset.id,
      data: { link: 'https://app.example/reset?t=abc', code: '9731' },
      metadata: { user_id: '42', flow: 'reset' },
      tracking: { opens: false, clicks: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'queued', to: 'person@example.com', send_at: null, sandbox: false });
    const id = res.body.data.id;

    const read = await s.o.api('GET', `/message/${id}`);
    expect(read.body.data).toMatchObject({ kind: 'transactional', metadata: { user_id: '42', flow: 'reset' }, contact_id: null, template_id: s.reset.id });

    const { sent } = await deliver(s.o, id);
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).toBe('Reset for you');
    expect(sent[0].body).toContain('Hello there, your link: <a href="https://app.example/reset?t=abc">reset</a> 9731');
    expect(sent[0].headers?.['List-Unsubscribe']).toBeUndefined();
    expect(sent[0].headers?.['Feedback-ID']).toMatch(/^transactional:\d+:transactional:relay$/);
    expect((await s.o.api('GET', `/message/${id}`)).body.data.status).toBe('sent');
    // A second delivery of the same queue message sends nothing more.
    expect((await deliver(s.o, id)).sent).toHaveLength(0);
  });

  it("fills the contact's placeholders for a contact's address, and sends inline content with cc, bcc, reply-to, headers and files", async () => {
    const s = await setup();
    await insertContact(s.o.orgId, 'Ann', [{ type: 'email', value: 'ann@example.com' }]);
    const viaTemplate = await post(s.o, '/send', { to: 'ann@example.com', sender_id: s.email.id, template_id: s.reset.id, data: { link: 'x', code: '1' } });
    expect(viaTemplate.status).toBe(202);
    expect((await deliver(s.o, viaTemplate.body.data.id)).sent[0].subject).toBe('Reset for Ann');

    const inline = await post(s.o, '/send', {
      to: 'bob@example.com',
      sender_id: s.email.id,
      subject: 'Your receipt',
      html: '<p>Thanks</p>',
      text: 'Thanks',
      cc: ['Boss@Example.com'],
      bcc: ['audit@example.com'],
      reply_to: 'help@acme.test',
      headers: { 'X-Order': 'A-17', 'In-Reply-To': '<order-17@acme.test>' },
      attachments: [{ filename: 'receipt.txt', content_type: 'text/plain', content: btoa('paid 10 EUR') }],
      tracking: { opens: false, clicks: false },
    });
    expect(inline.status, JSON.stringify(inline.body)).toBe(202);
    const [m] = (await deliver(s.o, inline.body.data.id)).sent;
    expect(m).toMatchObject({ subject: 'Your receipt', cc: ['boss@example.com'], bcc: ['audit@example.com'], replyTo: 'help@acme.test', html: true });
    expect(m.headers).toMatchObject({ 'X-Order': 'A-17', 'In-Reply-To': '<order-17@acme.test>' });
    expect(m.attachments?.map((a) => [a.filename, new TextDecoder().decode(a.content)])).toEqual([['receipt.txt', 'paid 10 EUR']]);
    const read = (await s.o.api('GET', `/message/${inline.body.data.id}`)).body.data;
    expect(read).toMatchObject({ cc: ['boss@example.com'], bcc: ['audit@example.com'], reply_to: 'help@acme.test' });
  });

  it('sends an SMS from a text template with data', async () => {
    const s = await setup();
    const res = await post(s.o, '/send', { to: '+15550001111', sender_id: s.phone.id, template_id: s.sms.id, data: { code: '5521' } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const [m] = (await deliver(s.o, res.body.data.id)).sent;
    expect(m).toMatchObject({ to: '+15550001111', body: 'Your code is 5521' });
  });

  it('refuses, field by field, and writes nothing', async () => {
    const s = await setup();
    const other = await setup();
    const before = await messageCount(s.o);
    await env.DB.prepare(
      "INSERT INTO blacklist (org_id, type, value, reason) VALUES (?, 'email', 'gone@example.com', 'bounce'), (?, 'email', 'spam@example.com', 'complaint'), (?, 'email', 'no@example.com', NULL)",
    )
      .bind(s.o.orgId, s.o.orgId, s.o.orgId)
      .run();
    await env.DB.prepare("INSERT INTO sms_opt_outs (org_id, phone, keyword) VALUES (?, '+15550002222', 'STOP')").bind(s.o.orgId).run();
    const base = { to: 'a@example.com', sender_id: s.email.id, template_id: s.reset.id, data: { link: 'x', code: '1' } };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...base, template_id: other.reset.id }, 'template_id', /No template of this organisation/],
      [{ ...base, sender_id: other.email.id }, 'sender_id', /No sender of this organisation/],
      [{ ...base, attachment_ids: [999999] }, 'attachment_ids', /No attachment of this organisation/],
      [{ ...base, to: '+15550001111' }, 'to', /sends email/],
      [{ to: 'a@example.com', sender_id: s.phone.id, template_id: s.sms.id, data: { code: '1' } }, 'to', /sends SMS/],
      [{ ...base, data: { link: 'x' } }, 'data', /needs data\.code/],
      [{ ...base, data: { link: 'x', code: '1', big: 'x'.repeat(40_000) } }, 'data', /larger than 32 KB/],
      [{ ...base, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, k) => [`k${k}`, 'v'])) }, 'metadata', /more than 20 keys/],
      [{ ...base, metadata: { n: 5 } }, 'metadata.n', /metadata value is a string/],
      [
        { ...base, attachments: [{ filename: 'a.bin', content_type: 'application/octet-stream', content: btoa('x'.repeat(5_100_000)) }] },
        'attachments.0.content',
        /larger than 5 MB/,
      ],
      [{ ...base, to: 'gone@example.com' }, 'to', /bounced/],
      [{ ...base, to: 'spam@example.com' }, 'to', /reported a message as spam/],
      [{ ...base, to: 'no@example.com' }, 'to', /blacklist/],
      [{ ...base, cc: ['gone@example.com'] }, 'cc', /bounced/],
      [{ to: '+15550002222', sender_id: s.phone.id, template_id: s.sms.id, data: { code: '1' } }, 'to', /replied STOP/],
      [{ ...base, headers: { From: 'x@y.z' } }, 'headers', /./],
      [{ ...base, headers: { 'X-Evil': 'a\r\nBcc: b@c.d' } }, 'headers', /./],
      [{ ...base, send_at: new Date(Date.now() + 73 * 3_600_000).toISOString() }, 'send_at', /72 hours/],
      [{ ...base, send_at: new Date(Date.now() - 3_600_000).toISOString() }, 'send_at', /past/],
      [{ ...base, subscription_id: 999999 }, 'subscription_id', /No subscription/],
      [{ to: 'a@example.com', sender_id: s.email.id, html: '<p>no subject</p>' }, 'subject', /needs a subject/],
      [{ to: 'a@example.com', sender_id: s.email.id }, 'template_id', /Give template_id/],
      [{ ...base, subject: 'x' }, 'template_id', /not both/],
    ];
    for (const [json, field, message] of cases) {
      const res = await post(s.o, '/send', json);
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(422);
      const messages = (res.body.error.fields?.[field] ?? []).join(' ');
      expect(messages, `${field}: ${JSON.stringify(res.body.error.fields)}`).toMatch(message);
    }
    expect(await messageCount(s.o)).toBe(before);
    // Malformed bodies: 400/415/422, never a 500.
    expect((await call(s.o.org, '/api/v1/send', { method: 'POST', token: s.o.token, body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(
      400,
    );
    expect((await call(s.o.org, '/api/v1/send', { method: 'POST', token: s.o.token, body: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await post(s.o, '/send', [1, 2])).status).toBe(422);
    expect((await post(s.o, '/send', { ...base, unknown: 1 })).status).toBe(422);
  });

  it('answers each message of a batch on its own', async () => {
    const s = await setup();
    const before = await messageCount(s.o);
    const res = await post(s.o, '/send/batch', {
      messages: [
        { to: 'one@example.com', sender_id: s.email.id, template_id: s.reset.id, data: { link: 'x', code: '1' } },
        { to: 'two@example.com', sender_id: s.email.id, template_id: s.reset.id, data: { link: 'x' } },
        { to: '+15550003333', sender_id: s.phone.id, text: 'Hi' },
        'not a message',
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data.map((d: { status: number }) => d.status)).toEqual([202, 422, 202, 422]);
    expect(res.body.data[1].error.fields.data[0]).toMatch(/data\.code/);
    expect(await messageCount(s.o)).toBe(before + 2);
    expect((await post(s.o, '/send/batch', { messages: [] })).status).toBe(422);
    expect((await post(s.o, '/send/batch', { messages: Array.from({ length: 501 }, () => ({})) })).status).toBe(422);
    const none = await post(s.o, '/send/batch', { messages: [{ to: 'x@example.com', sender_id: 999999, text: 'x' }] });
    expect(none.status).toBe(422);
    expect(none.body.error.fields['messages.0.sender_id']).toBeDefined();
  });

  it('keeps an Idempotency-Key: a retry answers the first call again and sends nothing more; another body is refused', async () => {
    const s = await setup();
    const json = { to: 'idem@example.com', sender_id: s.email.id, template_id: s.reset.id, data: { link: 'x', code: '1' } };
    const first = await post(s.o, '/send', json, { 'Idempotency-Key': 'order-17-receipt' });
    expect(first.status).toBe(202);
    const count = await messageCount(s.o);
    const retry = await post(s.o, '/send', json, { 'Idempotency-Key': 'order-17-receipt' });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('Idempotent-Replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await messageCount(s.o)).toBe(count);
    const other = await post(s.o, '/send', { ...json, to: 'else@example.com' }, { 'Idempotency-Key': 'order-17-receipt' });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    // A refused call keeps nothing under its key: fixed, the same key sends.
    const bad = await post(s.o, '/send', { ...json, data: {} }, { 'Idempotency-Key': 'fix-me' });
    expect(bad.status).toBe(422);
    expect((await post(s.o, '/send', json, { 'Idempotency-Key': 'fix-me' })).status).toBe(202);
    // The batch path is its own scope.
    expect((await post(s.o, '/send/batch', { messages: [json] }, { 'Idempotency-Key': 'order-17-receipt' })).status).toBe(202);
  });

  it('schedules a message with send_at: not sent before its time, handed to the queue by the ledger when it comes', async () => {
    const s = await setup();
    const at = new Date(Date.now() + 3_600_000);
    const res = await post(s.o, '/send', { to: 'later@example.com', sender_id: s.email.id, subject: 'Later', text: 'Later', send_at: at.toISOString() });
    expect(res.status).toBe(202);
    expect(Date.parse(res.body.data.send_at)).toBe(at.getTime());
    expect((await deliver(s.o, res.body.data.id)).sent).toHaveLength(0);
    expect((await s.o.api('GET', `/message/${res.body.data.id}`)).body.data.status).toBe('queued');
    // Its time came: the delivery sends it.
    await (await ledgerSql(s.o.orgId))
      .prepare('UPDATE messages SET delayed_at = ? WHERE id = ?')
      .bind(new Date(Date.now() - 1000).toISOString(), res.body.data.id)
      .run();
    expect((await deliver(s.o, res.body.data.id)).sent).toHaveLength(1);
  });

  it('with a category: makes the contact, carries one-click unsubscribe, and the unsubscribe holds for the next send', async () => {
    const s = await setup();
    const sub = await s.o.api('POST', '/subscription', { name: 'Product updates' });
    expect(sub.status, sub.text).toBe(201);
    const tpl = await createTemplate(s.o, {
      type: 'html',
      name: 'Update',
      subject: 'News',
      body: '<p>{{ data.text }} <a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
    });
    const json = { to: 'reader@example.com', sender_id: s.email.id, template_id: tpl.id, data: { text: 'New!' }, subscription_id: sub.body.data.id };
    const res = await post(s.o, '/send', json);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const contact = await env.DB.prepare("SELECT contact_id FROM contact_addresses WHERE org_id = ? AND value = 'reader@example.com'")
      .bind(s.o.orgId)
      .first<{ contact_id: number }>();
    expect(contact).not.toBeNull();
    const [m] = (await deliver(s.o, res.body.data.id)).sent;
    const link = m.headers!['List-Unsubscribe'].slice(1, -1);
    expect(m.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    // The link in the body is the message's own, left as it is: an unsubscribe is never counted as a click.
    expect(m.body).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
    expect(m.body).not.toContain('unsubscribe.relay.invalid');
    // The one-click POST the mailbox provider sends leaves this category.
    const url = new URL(link);
    const oneClick = await call(s.o.org, `${url.pathname}${url.search}`, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(oneClick.status).toBeLessThan(300);
    const again = await post(s.o, '/send', json);
    expect(again.status).toBe(422);
    expect(again.body.error.fields.to[0]).toMatch(/unsubscribed from this category/);
    // Without the category the same address still gets its receipts.
    expect((await post(s.o, '/send', { ...json, subscription_id: undefined })).status).toBe(202);
  });
});
