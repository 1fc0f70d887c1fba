// The platform's own mail end to end: queueSystemMail stores it, the send queue's consumer delivers it through
// SYSTEM_SMTP_URL to a real smtp-server instance (started by test/support/transport-servers.ts), marks it sent
// and clears its text; the same queue message delivered again sends nothing.
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { dispatchQueue } from '../../queues/dispatch';
import { createDb } from '../../src/db/client';
import type { Env } from '../../src/env';
import { deliverSystemMail } from '../../src/modules/system-mail/deliver';
import { queueSystemMail, SYSTEM_MAIL_KIND } from '../../src/modules/system-mail/queue-mail';
import { NOT_SET_UP, parse, received, S, uniqueAddress } from '../support/transport-helpers';

type Row = { status: string; text: string | null; html: string | null; attempts: number; error: string | null; sent_at: string | null };
const row = (id: number) => env.DB.prepare('SELECT * FROM system_mails WHERE id = ?').bind(id).first<Row>();

/** The worker's env pointed at one of the test SMTP servers; the send queue only records. */
function envFor(url: string, sent: unknown[] = []): Env {
  const queue = { send: async (body: unknown) => void sent.push(body) } as unknown as Queue;
  return { ...env, SEND_QUEUE: queue, SYSTEM_SMTP_URL: url, SYSTEM_MAIL_FROM: 'Relay Platform <no-reply@relay.test>' } as Env;
}
const auth = () => `${encodeURIComponent(S.smtpUser)}:${encodeURIComponent(S.smtpPassword)}`;

describe.skipIf(NOT_SET_UP)('system mail over SMTP', () => {
  beforeAll(async () => {
    await applyD1Migrations(env.DB, (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS);
  });

  it('delivers a queued system mail, marks it sent, clears the text; a redelivery sends nothing', async () => {
    const to = uniqueAddress('system');
    const queued: unknown[] = [];
    const e = envFor(`smtp://${auth()}@127.0.0.1:${S.smtp.pipe}`, queued);
    const link = 'http://acme.localhost:8787/sign-complete?code=one-time-secret';
    const id = await queueSystemMail(e, createDb(env.DB), {
      to,
      subject: 'Complete your registration',
      text: `Open ${link}`,
      html: `<p><a href="${link}">Open</a></p>`,
    });
    expect(queued).toEqual([{ kind: SYSTEM_MAIL_KIND, mailId: id }]);

    let acked = 0;
    const message = { id: 'q1', attempts: 1, body: queued[0], ack: () => acked++, retry: () => {} };
    const batch = { queue: 'relay-send', messages: [message] } as unknown as MessageBatch<never>;
    await dispatchQueue(batch, e);
    expect(acked).toBe(1);

    const mails = await received({ to });
    expect(mails).toHaveLength(1);
    expect(mails[0].from).toBe('no-reply@relay.test');
    expect(mails[0].user).toBe(S.smtpUser);
    const parsed = await parse(mails[0].raw);
    expect(parsed.subject).toBe('Complete your registration');
    expect(parsed.from).toMatchObject({ name: 'Relay Platform', address: 'no-reply@relay.test' });
    expect(parsed.text?.trim()).toBe(`Open ${link}`);
    expect(parsed.html).toContain(link);

    const stored = await row(id);
    expect(stored).toMatchObject({ status: 'sent', text: null, html: null, attempts: 1, error: null });
    expect(stored!.sent_at).toBeTruthy();

    // The queue delivers the same message again: nothing more is sent.
    await dispatchQueue(batch, e);
    expect(acked).toBe(2);
    expect(await received({ to })).toHaveLength(1);
  });

  it('delivers over implicit TLS (smtps://)', async () => {
    const to = uniqueAddress('system-tls');
    const e = envFor(`smtps://${auth()}@localhost:${S.smtp.ssl}`);
    const id = await queueSystemMail(e, createDb(env.DB), { to, subject: 'TLS', text: 'Over TLS' });
    await deliverSystemMail(e, { mailId: id });
    const [mail] = await received({ to });
    expect(mail.secure).toBe(true);
    expect((await parse(mail.raw)).text?.trim()).toBe('Over TLS');
    expect((await row(id))!.status).toBe('sent');
  });

  it('keeps a mail queued on a transient refusal (421) and fails it on a permanent one (554)', async () => {
    const soft = envFor(`smtp://127.0.0.1:${S.smtp.greet421}`);
    const a = await queueSystemMail(soft, createDb(env.DB), { to: uniqueAddress(), subject: 'S', text: 'T' });
    await expect(deliverSystemMail(soft, { mailId: a })).rejects.toThrow(/not sent yet/);
    expect(await row(a)).toMatchObject({ status: 'queued', attempts: 1, text: 'T' });
    expect((await row(a))!.error).toMatch(/421/);

    const hard = envFor(`smtp://127.0.0.1:${S.smtp.greet554}`);
    const b = await queueSystemMail(hard, createDb(env.DB), { to: uniqueAddress(), subject: 'S', text: 'T' });
    await deliverSystemMail(hard, { mailId: b });
    expect(await row(b)).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await row(b))!.error).toMatch(/554/);
  });
});
