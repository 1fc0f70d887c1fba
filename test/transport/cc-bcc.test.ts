// Cc, bcc, reply-to and a caller's headers through the SMTP transport into real smtp-server instances (issue 36):
// cc and bcc are envelope recipients, the data has Cc and Reply-To and never Bcc, a refused cc or bcc does not fail
// the message (it comes back in `refused`), a refused `to` still does and then nobody gets it, and a message without
// them makes the same conversation and data as before.
import { describe, expect, it } from 'vitest';
import { buildEmail } from '../../src/lib/mime/build';
import { SmtpConnection } from '../../src/lib/smtp/connection';
import { dotStuff } from '../../src/lib/smtp/send';
import { openTransport, type TransportIntegration } from '../../src/lib/transport/open';
import type { SendResult } from '../../src/lib/transport/types';
import { headerErrors } from '../../src/shared/email-headers';
import { email, FAST, NOT_SET_UP, parse, rawHeaders, received, S, stats, uniqueAddress } from '../support/transport-helpers';

function smtpIntegration(port: number, details: Record<string, unknown> = {}): TransportIntegration {
  return {
    type: 'smtp',
    details: { server: '127.0.0.1', port, ssl: false, tls: false, domain: 'mail.acme.test', return_path: 'bounces@acme.test', user: S.smtpUser, ...details },
    secret: { password: S.smtpPassword },
  };
}

const addressesOf = (list: unknown[] | undefined) => (list ?? []).map((a) => (a as { address: string }).address);

/** Records every write of every SMTP connection while `run` goes (the real connections, to real servers). */
async function recordingWrites<T>(run: () => Promise<T>): Promise<{ result: T; writes: string[] }> {
  const writes: string[] = [];
  const write = SmtpConnection.prototype.write;
  SmtpConnection.prototype.write = function (this: SmtpConnection, text: string) {
    writes.push(text);
    return write.call(this, text);
  };
  try {
    return { result: await run(), writes };
  } finally {
    SmtpConnection.prototype.write = write;
  }
}

/** The message with its Date and its (random) boundaries replaced by fixed text. */
function withoutDateAndBoundaries(raw: string): string {
  let text = raw.replace(/^Date: .*$/m, 'Date: (date)');
  [...raw.matchAll(/boundary=([0-9a-z]+)/g)].forEach(([, boundary], i) => {
    text = text.split(boundary).join(`(boundary ${i + 1})`);
  });
  return text;
}

describe.skipIf(NOT_SET_UP)('cc, bcc and reply-to over SMTP', () => {
  const servers = [
    ['pipelining', () => smtpIntegration(S.smtp.pipe)],
    ['no pipelining', () => smtpIntegration(S.smtp.nopipe)],
  ] as const;

  for (const [label, integration] of servers) {
    it(`delivers to, cc and bcc as envelope recipients; the data has Cc and Reply-To and no Bcc (${label})`, async () => {
      const transport = openTransport(integration(), {}, { timeouts: FAST });
      const cc = [uniqueAddress('cc'), uniqueAddress('cc')];
      const bcc = [uniqueAddress('bcc')];
      const message = email({ cc, bcc, replyTo: 'support@acme.test', subject: 'Your ticket' });
      const result = await transport.send(message);
      await transport.close();
      expect(result).toEqual({ ok: true, externalId: expect.stringMatching(/^(pipe|nopipe)-\d+$/) });

      const mail = await received({ to: bcc[0] });
      expect(mail).toHaveLength(1);
      expect(mail[0].to).toEqual([message.to, ...cc, ...bcc]);
      expect(mail[0].from).toBe('bounces@acme.test');
      expect(mail[0].raw).not.toContain(bcc[0]);
      const headers = rawHeaders(mail[0].raw);
      expect(headers.map(([k]) => k)).not.toContain('bcc');
      expect(Object.fromEntries(headers)).toMatchObject({ cc: `<${cc[0]}>, <${cc[1]}>`, 'reply-to': '<support@acme.test>' });

      const parsed = await parse(mail[0].raw);
      expect(addressesOf(parsed.to)).toEqual([message.to]);
      expect(addressesOf(parsed.cc)).toEqual(cc);
      expect(addressesOf(parsed.replyTo)).toEqual(['support@acme.test']);
      expect(parsed.bcc ?? []).toEqual([]);
      expect(parsed.subject).toBe('Your ticket');
    });

    it(`a refused cc or bcc does not fail the message and comes back in refused, also to onAccepted (${label})`, async () => {
      const transport = openTransport(integration(), {}, { timeouts: FAST });
      const goodCc = uniqueAddress('cc');
      const badCc = uniqueAddress('reject5');
      const busyBcc = uniqueAddress('reject4');
      const message = email({ cc: [badCc, goodCc], bcc: [busyBcc] });
      const heard: SendResult[] = [];
      const [result] = await transport.sendMany([message], (_i, accepted) => void heard.push(accepted));
      await transport.close();
      const refused = [
        { address: badCc, field: 'cc', error: '550 5.1.1 No such user here', retryable: false },
        { address: busyBcc, field: 'bcc', error: '450 4.2.1 Mailbox busy, try again later', retryable: true },
      ];
      expect(result).toEqual({ ok: true, externalId: expect.stringMatching(/^(pipe|nopipe)-\d+$/), refused });
      expect(heard).toEqual([result]);
      const [mail] = await received({ to: message.to });
      expect(mail.to).toEqual([message.to, goodCc]);
      // The Cc header still names everyone it was written for: the refusal is the server's, not the sender's.
      expect(addressesOf((await parse(mail.raw)).cc)).toEqual([badCc, goodCc]);
    });

    it(`a refused to still fails the message, reaches no cc, and the next message goes (${label})`, async () => {
      const transport = openTransport(integration(), {}, { timeouts: FAST });
      const cc = uniqueAddress('cc');
      const bcc = uniqueAddress('bcc');
      const gone = email({ to: uniqueAddress('reject5'), cc: [cc], bcc: [bcc] });
      // A temporary refusal of `to` stays retryable, whatever a cc's answer was (here a permanent one).
      const busy = email({ to: uniqueAddress('reject4'), cc: [uniqueAddress('reject5')] });
      const next = email({ cc: [uniqueAddress('cc')] });
      const results = await transport.sendMany([gone, busy, next]);
      await transport.close();
      expect(results[0]).toMatchObject({ ok: false, retryable: false, cause: 'mailbox', error: expect.stringContaining('550 5.1.1') });
      expect(results[0]).not.toHaveProperty('refused');
      expect(results[1]).toMatchObject({ ok: false, retryable: true, cause: 'throttled' });
      expect((results[1] as { error: string }).error).not.toContain('550');
      expect(results[2]).toMatchObject({ ok: true });
      expect(await received({ to: cc })).toEqual([]);
      expect(await received({ to: bcc })).toEqual([]);
      const [delivered] = await received({ to: next.to });
      expect(delivered.to).toEqual([next.to, next.cc![0]]);
    });
  }

  it('sends one command at a time with copies to a server without PIPELINING (a strict server counts violations)', async () => {
    const before = (await stats('lockstep')).violations;
    const transport = openTransport(smtpIntegration(S.scripted.lockstep, { user: null }), {}, { timeouts: FAST });
    const messages = [email({ cc: [uniqueAddress('cc')], bcc: [uniqueAddress('bcc')], replyTo: 'help@acme.test' }), email()];
    expect((await transport.sendMany(messages)).map((r) => r.ok)).toEqual([true, true]);
    await transport.close();
    expect((await received({ to: messages[0].to }))[0].to).toEqual([messages[0].to, ...messages[0].cc!, ...messages[0].bcc!]);
    expect((await stats('lockstep')).violations).toBe(before);
  });

  it('names each recipient once in the envelope, whatever the overlap of to, cc and bcc', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const to = uniqueAddress('to');
    const cc = uniqueAddress('cc');
    const bcc = uniqueAddress('bcc');
    const message = email({ to, cc: [cc, to.toUpperCase(), ` ${cc} `], bcc: [bcc, cc, to, bcc] });
    expect((await transport.send(message)).ok).toBe(true);
    await transport.close();
    const [mail] = await received({ to });
    expect(mail.to).toEqual([to, cc, bcc]);
    expect(Object.fromEntries(rawHeaders(mail.raw)).cc).toBe(`<${cc}>, <${to.toUpperCase()}>`);
  });

  it('fails a message whose cc, bcc or reply-to is not an address, before it reaches the server', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const messages = [
      email({ cc: ['not an address'] }),
      email({ bcc: ['x@y.test>\r\nRCPT TO:<z@y.test'] }),
      email({ replyTo: 'a@b.test\r\nBcc: c@d.test' }),
      email({ cc: [uniqueAddress('cc')] }),
    ];
    const results = await transport.sendMany(messages);
    await transport.close();
    expect(results.slice(0, 3)).toEqual([
      { ok: false, retryable: false, error: 'The cc address "not an address" is not a valid email address.' },
      { ok: false, retryable: false, error: 'The bcc address "x@y.test>\r\nRCPT TO:<z@y.test" is not a valid email address.' },
      { ok: false, retryable: false, error: 'The reply-to address "a@b.test\r\nBcc: c@d.test" is not a valid email address.' },
    ]);
    expect(results[3].ok).toBe(true);
    for (const m of messages.slice(0, 3)) expect(await received({ to: m.to })).toEqual([]);
  });

  it("carries a caller's allowed headers; headerErrors refuses injection and the builder would neutralise it anyway", async () => {
    const allowed = {
      'X-Order-Id': 'A-1001',
      'In-Reply-To': '<ticket-77@help.acme.test>',
      References: '<ticket-70@help.acme.test> <ticket-77@help.acme.test>',
    };
    expect(headerErrors(allowed)).toEqual([]);
    const injected = { 'X-Order-Id': 'A-1001\r\nBcc: victim@example.test', From: 'ceo@acme.test' };
    expect(headerErrors(injected)).toEqual([
      'Header "X-Order-Id" must not contain line breaks or control characters.',
      expect.stringMatching(/^Header "From" cannot be set/),
    ]);

    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const good = email({ headers: allowed });
    // Past the API's validation by mistake: still no header of its own, and From stays the sender's.
    const bad = email({ headers: injected });
    expect((await transport.sendMany([good, bad])).map((r) => r.ok)).toEqual([true, true]);
    await transport.close();
    const parsed = await parse((await received({ to: good.to }))[0].raw);
    expect(parsed.inReplyTo).toBe('<ticket-77@help.acme.test>');
    expect(parsed.references).toBe('<ticket-70@help.acme.test> <ticket-77@help.acme.test>');
    expect(parsed.headers.find((h) => h.key === 'x-order-id')?.value).toBe('A-1001');
    const [badMail] = await received({ to: bad.to });
    expect(rawHeaders(badMail.raw).map(([k]) => k)).not.toContain('bcc');
    expect(badMail.raw).not.toMatch(/^Bcc:/im);
    expect(badMail.to).toEqual([bad.to]);
    expect((await parse(badMail.raw)).from).toMatchObject({ address: 'news@acme.test' });
  });
});

describe.skipIf(NOT_SET_UP)('the path without cc, bcc and reply-to', () => {
  it('makes the same pipelined conversation as before: MAIL, RCPT and DATA in one write, the content with the next group', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const messages = [email(), email({ cc: [], bcc: [], replyTo: null })];
    const { result, writes } = await recordingWrites(async () => {
      const results = await transport.sendMany(messages);
      await transport.close();
      return results;
    });
    expect(result.map((r) => r.ok)).toEqual([true, true]);
    expect(result[0]).not.toHaveProperty('refused');
    const [first, second] = await Promise.all(messages.map(async (m) => (await received({ to: m.to }))[0].raw));
    const session = writes.slice(writes.findIndex((w) => w.startsWith('MAIL FROM')));
    expect(session).toEqual([
      `MAIL FROM:<bounces@acme.test>\r\nRCPT TO:<${messages[0].to}>\r\nDATA\r\n`,
      `${dotStuff(first)}MAIL FROM:<bounces@acme.test>\r\nRCPT TO:<${messages[1].to}>\r\nDATA\r\n`,
      dotStuff(second),
      'QUIT\r\n',
    ]);
  });

  it('sends the data the builder makes without them', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const message = email({ id: 4242, headers: { 'List-Unsubscribe': '<https://acme.test/u/4242>' } });
    expect((await transport.send(message)).ok).toBe(true);
    await transport.close();
    const [mail] = await received({ to: message.to });
    const built = buildEmail({
      messageId: 'relay-4242@acme.test',
      from: message.from,
      to: message.to,
      subject: message.subject,
      body: message.body,
      html: message.html,
      returnPath: 'bounces@acme.test',
      headers: message.headers,
    });
    expect(withoutDateAndBoundaries(mail.raw)).toBe(withoutDateAndBoundaries(`${built}\r\n`));
  });

  it('with copies, DATA waits for the RCPT replies (one round trip more), only for that message', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const cc = uniqueAddress('cc');
    const bcc = uniqueAddress('bcc');
    const messages = [email({ cc: [cc], bcc: [bcc] }), email()];
    const { result, writes } = await recordingWrites(async () => {
      const results = await transport.sendMany(messages);
      await transport.close();
      return results;
    });
    expect(result.map((r) => r.ok)).toEqual([true, true]);
    const [first, second] = await Promise.all(messages.map(async (m) => (await received({ to: m.to }))[0].raw));
    const session = writes.slice(writes.findIndex((w) => w.startsWith('MAIL FROM')));
    expect(session).toEqual([
      `MAIL FROM:<bounces@acme.test>\r\nRCPT TO:<${messages[0].to}>\r\nRCPT TO:<${cc}>\r\nRCPT TO:<${bcc}>\r\n`,
      'DATA\r\n',
      `${dotStuff(first)}MAIL FROM:<bounces@acme.test>\r\nRCPT TO:<${messages[1].to}>\r\nDATA\r\n`,
      dotStuff(second),
      'QUIT\r\n',
    ]);
  });
});
