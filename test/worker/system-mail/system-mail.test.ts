import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { dispatchQueue } from '../../../queues/dispatch';
import { QUEUE_MAX_DELIVERIES } from '../../../src/queue-names';
import { createDb } from '../../../src/db/client';
import type { Env } from '../../../src/env';
import type { SmtpTransportOptions } from '../../../src/lib/smtp/transport';
import type { OutgoingMessage, SendResult, Transport } from '../../../src/lib/transport/types';
import { deliverSystemMail, NOT_CONFIGURED } from '../../../src/modules/system-mail/deliver';
import { queueSystemMail, SYSTEM_MAIL_KIND } from '../../../src/modules/system-mail/queue-mail';
import { rescueStalledSystemMails } from '../../../src/modules/system-mail/rescue';
import { systemFrom, systemSmtpOptions } from '../../../src/modules/system-mail/smtp-config';

type Row = {
  id: number;
  org_id: number | null;
  to_address: string;
  subject: string;
  text: string | null;
  html: string | null;
  status: string;
  attempts: number;
  error: string | null;
  sent_at: string | null;
};
const row = (id: number) => env.DB.prepare('SELECT * FROM system_mails WHERE id = ?').bind(id).first<Row>();

/** A send queue that only records what was put on it, so the real consumer does not race the test. */
function recordingQueue() {
  const sent: { body: unknown; options?: unknown }[] = [];
  const queue = {
    send: async (body: unknown, options?: unknown) => void sent.push({ body, options }),
    sendBatch: async (messages: { body: unknown; delaySeconds?: number }[]) => {
      for (const { body, delaySeconds } of messages) sent.push({ body, options: delaySeconds ? { delaySeconds } : undefined });
    },
  } as unknown as Queue;
  return { sent, queue };
}

/** Stores a queued mail directly (no queue message). */
async function stored(text = 'Your code: secret-123'): Promise<number> {
  const r = await env.DB.prepare(
    "INSERT INTO system_mails (to_address, subject, text, html) VALUES ('to@example.com', 'Subject', ?, '<p>html</p>') RETURNING id",
  )
    .bind(text)
    .first<{ id: number }>();
  return r!.id;
}

/** A transport standing in for the SMTP server: records what it is given and answers with `results` in turn. */
function scriptedTransport(...results: SendResult[]) {
  const sent: OutgoingMessage[] = [];
  const opened: SmtpTransportOptions[] = [];
  const open = (options: SmtpTransportOptions): Transport => {
    opened.push(options);
    return {
      send: async (m) => {
        sent.push(m);
        return results[Math.min(sent.length - 1, results.length - 1)];
      },
      sendMany: async () => [],
      close: async () => {},
    };
  };
  return { sent, opened, open };
}

const configured = {
  ...env,
  SYSTEM_SMTP_URL: 'smtp://mailer%40x.test:p%C3%A4ss%20word@127.0.0.1:2525',
  SYSTEM_MAIL_FROM: '"Relay Team" <team@relay.test>',
} as Env;

describe('queueSystemMail', () => {
  it('stores the mail as queued and puts one system-mail message on the send queue', async () => {
    const { sent, queue } = recordingQueue();
    const id = await queueSystemMail({ ...env, SEND_QUEUE: queue }, createDb(env.DB), {
      to: ' someone@example.com ',
      subject: 'Hello',
      text: 'Plain',
      html: '<p>Plain</p>',
    });
    expect(sent).toEqual([{ body: { kind: SYSTEM_MAIL_KIND, mailId: id }, options: undefined }]);
    expect(await row(id)).toMatchObject({
      org_id: null,
      to_address: 'someone@example.com',
      subject: 'Hello',
      text: 'Plain',
      html: '<p>Plain</p>',
      status: 'queued',
      attempts: 0,
    });
  });
});

describe('system mail consumer', () => {
  it('without SYSTEM_SMTP_URL marks the mail failed, keeps its text and acks', async () => {
    const id = await stored();
    await deliverSystemMail(env, { mailId: id });
    expect(await row(id)).toMatchObject({ status: 'failed', error: NOT_CONFIGURED, text: 'Your code: secret-123' });
  });

  it('sends once through SYSTEM_SMTP_URL, clears the text, and a redelivery sends nothing', async () => {
    const id = await stored();
    const t = scriptedTransport({ ok: true, externalId: 'x' });
    await deliverSystemMail(configured, { mailId: id }, t.open);
    expect(t.opened[0]).toMatchObject({
      host: '127.0.0.1',
      port: 2525,
      security: 'none',
      clientName: 'relay.test',
      auth: { user: 'mailer@x.test', password: 'päss word' },
    });
    expect(t.sent).toHaveLength(1);
    expect(t.sent[0]).toMatchObject({
      id,
      to: 'to@example.com',
      subject: 'Subject',
      from: { address: 'team@relay.test', name: 'Relay Team' },
      body: '<p>html</p>',
      html: true,
      bodyPlain: 'Your code: secret-123',
    });
    expect(await row(id)).toMatchObject({ status: 'sent', text: null, html: null, attempts: 1, error: null });
    expect((await row(id))!.sent_at).toBeTruthy();
    await deliverSystemMail(configured, { mailId: id }, t.open);
    expect(t.sent).toHaveLength(1);
  });

  it('does nothing while another delivery holds the claim', async () => {
    const id = await stored();
    await env.DB.prepare("UPDATE system_mails SET status = 'sending', updated_at = ? WHERE id = ?").bind(new Date().toISOString(), id).run();
    const t = scriptedTransport({ ok: true, externalId: 'x' });
    const { sent, queue } = recordingQueue();
    await deliverSystemMail({ ...configured, SEND_QUEUE: queue }, { mailId: id }, t.open);
    expect(t.sent).toHaveLength(0);
    expect(sent).toHaveLength(0); // after the lease the cron's rescue puts it back on the queue (tested below)
    expect((await row(id))!.status).toBe('sending');
  });

  it('releases the mail on a transient failure (throws to retry) and fails it after the last attempt', async () => {
    const id = await stored();
    const t = scriptedTransport({ ok: false, retryable: true, error: '421 try later' });
    await expect(deliverSystemMail(configured, { mailId: id }, t.open)).rejects.toThrow(/not sent yet/);
    expect(await row(id)).toMatchObject({ status: 'queued', attempts: 1, error: '421 try later', text: 'Your code: secret-123' });
    for (let i = 2; i < QUEUE_MAX_DELIVERIES; i++) await expect(deliverSystemMail(configured, { mailId: id }, t.open)).rejects.toThrow();
    await deliverSystemMail(configured, { mailId: id }, t.open);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: QUEUE_MAX_DELIVERIES, error: '421 try later' });
    expect(t.sent).toHaveLength(QUEUE_MAX_DELIVERIES);
  });

  it('fails a permanent refusal at once', async () => {
    const id = await stored();
    const t = scriptedTransport({ ok: false, retryable: false, error: '550 no such user' });
    await deliverSystemMail(configured, { mailId: id }, t.open);
    expect(await row(id)).toMatchObject({ status: 'failed', attempts: 1, error: '550 no such user' });
  });

  it('fails a mail when SYSTEM_SMTP_URL cannot be used, and ignores unknown or malformed bodies', async () => {
    const id = await stored();
    await deliverSystemMail({ ...env, SYSTEM_SMTP_URL: 'http://wrong.test' } as Env, { mailId: id });
    expect(await row(id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/smtp:\/\//) });
    await deliverSystemMail(env, { mailId: 987654 });
    await expect(deliverSystemMail(env, { mailId: 'x' as unknown as number })).rejects.toThrow(/malformed/);
  });

  it('is wired to the send queue dispatcher', async () => {
    const id = await stored();
    let acked = 0;
    const message = { id: 'm1', attempts: 1, body: { kind: SYSTEM_MAIL_KIND, mailId: id }, ack: () => acked++, retry: () => {} };
    await dispatchQueue({ queue: 'relay-send', messages: [message] } as unknown as MessageBatch<never>, env);
    expect(acked).toBe(1);
    expect((await row(id))!.status).toBe('failed'); // no SMTP configured in the tests
  });
});

describe('system SMTP settings', () => {
  it('reads smtp, smtps and starttls URLs and the From', () => {
    expect(systemSmtpOptions({})).toBeNull();
    expect(systemSmtpOptions({ SYSTEM_SMTP_URL: 'smtps://u:p@mail.example.com' })).toMatchObject({
      host: 'mail.example.com',
      port: 465,
      security: 'ssl',
      auth: { user: 'u', password: 'p' },
    });
    expect(systemSmtpOptions({ SYSTEM_SMTP_URL: 'smtp://mail.example.com?starttls=1' })).toMatchObject({ port: 587, security: 'starttls', auth: null });
    expect(systemSmtpOptions({ SYSTEM_SMTP_URL: 'smtp://mail.example.com:2525' })).toMatchObject({ port: 2525, security: 'none', clientName: 'localhost' });
    expect(() => systemSmtpOptions({ SYSTEM_SMTP_URL: 'not a url' })).toThrow();
    expect(systemFrom({})).toEqual({ address: 'no-reply@localhost', name: 'Relay' });
    expect(systemFrom({ SYSTEM_MAIL_FROM: 'ops@example.com' })).toEqual({ address: 'ops@example.com', name: null });
  });
});

describe('rescueStalledSystemMails (cron)', () => {
  it('puts mail left queued or sending past the lease back on the queue, and leaves fresh, sent and failed mail alone', async () => {
    const old = new Date(Date.now() - 11 * 60_000).toISOString();
    const lost = await stored();
    const died = await stored();
    const fresh = await stored();
    const done = await stored();
    const gaveUp = await stored();
    const set = (id: number, status: string, updatedAt: string) =>
      env.DB.prepare('UPDATE system_mails SET status = ?, updated_at = ? WHERE id = ?').bind(status, updatedAt, id).run();
    await set(lost, 'queued', old);
    await set(died, 'sending', old);
    await set(done, 'sent', old);
    await set(gaveUp, 'failed', old);
    const { sent, queue } = recordingQueue();
    await rescueStalledSystemMails(createDb(env.DB), { SEND_QUEUE: queue });
    const ids = sent.map((m) => (m.body as { mailId: number }).mailId).sort((a, b) => a - b);
    expect(ids).toEqual([lost, died].sort((a, b) => a - b));
    expect(ids).not.toContain(fresh);
  });
});
