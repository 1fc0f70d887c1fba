// The SMTP client on cloudflare:sockets against real servers on loopback: smtp-server with and without
// PIPELINING, STARTTLS and implicit TLS with a test CA, AUTH PLAIN/LOGIN, per-recipient answers, RSET after
// failures, 421/554 greetings, a connection dropped mid-DATA, timeouts, QUIT; plus the reply parser.
import { describe, expect, it } from 'vitest';
import { SmtpConnection } from '../../../../src/lib/smtp/connection';
import { SmtpError } from '../../../../src/lib/smtp/errors';
import { ReplyReader } from '../../../../src/lib/smtp/reply';
import { dotStuff, sendBatch, type SmtpItem } from '../../../../src/lib/smtp/send';
import { FAST, NOT_SET_UP, received, S, smtpOptions, stats, uniqueAddress } from '../../../support/transport-helpers';

function streamOf(chunks: string[]): ReadableStreamDefaultReader<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  }).getReader();
}

function item(to: string | string[], body = 'Hello', from = 'sender@acme.test'): SmtpItem {
  const rcpts = Array.isArray(to) ? to : [to];
  return { envelope: { from, to: rcpts }, data: `From: <${from}>\r\nTo: <${rcpts[0]}>\r\nSubject: test\r\n\r\n${body}\r\n` };
}

async function openError(promise: Promise<unknown>): Promise<SmtpError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(SmtpError);
    return error as SmtpError;
  }
  throw new Error('expected the connection to fail');
}

describe('SMTP replies and dot-stuffing', () => {
  it('reads single and multi-line replies, split across packets or several in one', async () => {
    const reader = new ReplyReader(
      streamOf(['220 mx.test ESMTP\r\n250-mx.test\r\n250-PIPE', 'LINING\r\n250 SIZE 1000\r\n', '550 5.1.1 No such user\r\n354 go\r\n']),
    );
    expect(await reader.next(1000, 'greeting')).toEqual({ code: 220, enhanced: null, lines: ['mx.test ESMTP'] });
    expect((await reader.next(1000, 'EHLO')).lines).toEqual(['mx.test', 'PIPELINING', 'SIZE 1000']);
    expect(await reader.next(1000, 'RCPT')).toEqual({ code: 550, enhanced: '5.1.1', lines: ['5.1.1 No such user'] });
    expect((await reader.next(1000, 'DATA')).code).toBe(354);
    const end = await openError(reader.next(1000, 'QUIT'));
    expect(end.kind).toBe('connection_lost');
  });

  it('refuses what is not an SMTP reply, and mixed codes in one reply', async () => {
    expect((await openError(new ReplyReader(streamOf(['HTTP/1.1 400 Bad Request\r\n'])).next(1000, 'x'))).kind).toBe('protocol');
    expect((await openError(new ReplyReader(streamOf(['250-a\r\n550 b\r\n'])).next(1000, 'x'))).kind).toBe('protocol');
  });

  it('dot-stuffs every line that starts with a dot and normalises line ends', () => {
    expect(dotStuff('.a\n..b\r\nc.\r.\n')).toBe('..a\r\n...b\r\nc.\r\n..\r\n.\r\n');
    expect(dotStuff('x\r\n')).toBe('x\r\n.\r\n');
    // Each case alone in an otherwise clean CRLF message, which goes as it is.
    expect(dotStuff('a\r\nb\r\nc')).toBe('a\r\nb\r\nc\r\n.\r\n');
    expect(dotStuff('a\r\n.b\r\nc\r\n')).toBe('a\r\n..b\r\nc\r\n.\r\n');
    expect(dotStuff('a\r\nb\nc\r\n')).toBe('a\r\nb\r\nc\r\n.\r\n');
    expect(dotStuff('a\r\nb\rc\r\n')).toBe('a\r\nb\r\nc\r\n.\r\n');
    expect(dotStuff('a\r\nb\n.c')).toBe('a\r\nb\r\n..c\r\n.\r\n');
    expect(dotStuff('a\r\r\nb')).toBe('a\r\n\r\nb\r\n.\r\n');
  });
});

describe.skipIf(NOT_SET_UP)('SMTP sessions against real servers', () => {
  it('pipelines many messages over one connection when the server offers PIPELINING, EHLO with our domain', async () => {
    const conn = await SmtpConnection.open(smtpOptions('pipe'));
    expect(conn.capabilities.pipelining).toBe(true);
    expect(conn.capabilities.auth).toEqual(expect.arrayContaining(['PLAIN', 'LOGIN']));
    const rcpts = Array.from({ length: 6 }, () => uniqueAddress());
    const { results, lost } = await sendBatch(
      conn,
      rcpts.map((r, i) => item(r, `message ${i}`)),
    );
    await conn.quit();
    expect(lost).toBeNull();
    expect(results.map((r) => r?.ok)).toEqual(rcpts.map(() => true));
    const mail = (await received({ server: 'pipe' })).filter((m) => rcpts.includes(m.to[0]));
    expect(mail).toHaveLength(6);
    expect(new Set(mail.map((m) => m.connection)).size).toBe(1);
    expect(mail.map((m) => m.transaction)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mail.map((m) => m.raw.trim().split('\r\n').pop())).toEqual(rcpts.map((_, i) => `message ${i}`));
    expect(mail[0].ehlo).toBe('mailer.relay.test');
    expect(mail[0].user).toBe(S.smtpUser);
  });

  it('builds each content only when its turn comes, so a batch never holds every message at once', async () => {
    for (const server of ['pipe', 'nopipe'] as const) {
      const conn = await SmtpConnection.open(smtpOptions(server));
      const rcpts = Array.from({ length: 5 }, () => uniqueAddress());
      const accepted: number[] = [];
      // When each message was built: how many before it the server had already accepted.
      const acceptedWhenBuilt: number[] = [];
      const items = rcpts.map((r, i) => {
        const { envelope, data } = item(r, `message ${i}`);
        const build = () => {
          acceptedWhenBuilt.push(accepted.length);
          return data as string;
        };
        return { envelope, data: build };
      });
      const { results } = await sendBatch(conn, items, (index) => void accepted.push(index));
      await conn.quit();
      expect(results.map((r) => r?.ok)).toEqual(rcpts.map(() => true));
      // Pipelined, a message is built while the server reads the write before it (the previous content and its own
      // commands), so at most the two before it are still on their way; one command at a time, once those are accepted.
      expect(acceptedWhenBuilt).toEqual(server === 'pipe' ? [0, 0, 0, 1, 2] : [0, 1, 2, 3, 4]);
      const mail = (await received({ server })).filter((m) => rcpts.includes(m.to[0]));
      expect(mail.map((m) => m.raw.trim().split('\r\n').pop())).toEqual(rcpts.map((_, i) => `message ${i}`));
    }
  });

  it("refuses a message over the server's SIZE by its UTF-8 bytes, not its characters, and sends the rest", async () => {
    const conn = await SmtpConnection.open(smtpOptions('pipe'));
    const limit = conn.capabilities.size;
    expect(limit).toBe(10 * 1024 * 1024);
    // Half the limit in characters, one byte over it in UTF-8 ('é' is two bytes).
    const big = item(uniqueAddress(), 'é'.repeat(limit / 2));
    const bytes = new TextEncoder().encode(big.data as string).length;
    expect((big.data as string).length).toBeLessThan(limit);
    expect(bytes).toBeGreaterThan(limit);
    const small = uniqueAddress();
    const { results } = await sendBatch(conn, [big, item(small)]);
    await conn.quit();
    expect(results[0]).toMatchObject({ ok: false, retryable: false, error: `The message is ${bytes} bytes; the server accepts at most ${limit}.` });
    expect(results[1]?.ok).toBe(true);
    expect(await received({ to: big.envelope.to[0] })).toHaveLength(0);
    expect(await received({ to: small })).toHaveLength(1);
  });

  it('sends one command at a time when PIPELINING is not offered (a strict server counts violations)', async () => {
    const conn = await SmtpConnection.open({ ...smtpOptions('open'), port: S.scripted.lockstep, auth: null });
    expect(conn.capabilities.pipelining).toBe(false);
    const rcpts = [uniqueAddress(), uniqueAddress(), uniqueAddress()];
    const { results } = await sendBatch(conn, [item(rcpts[0]), item([rcpts[1], rcpts[2]])]);
    await conn.quit();
    expect(results.map((r) => r?.ok)).toEqual([true, true]);
    expect((await received({ to: rcpts[2] }))[0].to).toEqual([rcpts[1], rcpts[2]]);
    const after = await stats('lockstep');
    expect(after.violations).toBe(0);
    expect(after.quits).toBeGreaterThanOrEqual(1);

    // The same server notices a client that pipelines anyway: the check above can fail.
    const cheat = await SmtpConnection.open({ ...smtpOptions('open'), port: S.scripted.lockstep, auth: null });
    cheat.capabilities.pipelining = true;
    await sendBatch(cheat, [item(uniqueAddress())]);
    await cheat.quit();
    expect((await stats('lockstep')).violations).toBeGreaterThan(0);
  });

  it('logs in with AUTH LOGIN when that is all the server offers, without PIPELINING', async () => {
    const conn = await SmtpConnection.open(smtpOptions('nopipe'));
    expect(conn.capabilities.pipelining).toBe(false);
    expect(conn.capabilities.auth).toEqual(['LOGIN']);
    const rcpt = uniqueAddress();
    const { results } = await sendBatch(conn, [item(rcpt)]);
    await conn.quit();
    expect(results[0]?.ok).toBe(true);
    expect((await received({ to: rcpt }))[0].user).toBe(S.smtpUser);
  });

  it('round-trips lines that start with dots, pipelined and not', async () => {
    const body = '.\r\n..\r\n.leading dot\r\nmiddle . dot\r\n...\r\nlast line';
    for (const server of ['pipe', 'nopipe'] as const) {
      const conn = await SmtpConnection.open(smtpOptions(server));
      const rcpt = uniqueAddress();
      const { results } = await sendBatch(conn, [item(rcpt, body)]);
      await conn.quit();
      expect(results[0]?.ok).toBe(true);
      const [mail] = await received({ to: rcpt });
      expect(mail.raw.slice(mail.raw.indexOf('\r\n\r\n') + 4)).toBe(`${body}\r\n`);
    }
  });

  it('reports each recipient: accepted ones get the message, refused ones their reply', async () => {
    const good = [uniqueAddress(), uniqueAddress()];
    const bad5 = uniqueAddress('reject5');
    const bad4 = uniqueAddress('reject4');
    const conn = await SmtpConnection.open(smtpOptions('pipe'));
    const { results } = await sendBatch(conn, [item([good[0], bad5, bad4, good[1]])]);
    await conn.quit();
    const r = results[0]!;
    expect(r.ok).toBe(true);
    expect(r.accepted).toEqual(good);
    expect(r.rejected.map((x) => [x.recipient, x.reply.code])).toEqual([
      [bad5, 550],
      [bad4, 450],
    ]);
    expect((await received({ to: good[0] }))[0].to).toEqual(good);
  });

  for (const server of ['pipe', 'nopipe'] as const) {
    it(`resets after a failed transaction so the next messages still go (${server})`, async () => {
      const good = [uniqueAddress(), uniqueAddress(), uniqueAddress()];
      const batch = [good[0], uniqueAddress('reject5'), good[1], uniqueAddress('data5'), uniqueAddress('reject4'), uniqueAddress('data4'), good[2]];
      const conn = await SmtpConnection.open(smtpOptions(server));
      const { results, lost } = await sendBatch(
        conn,
        batch.map((to) => item(to)),
      );
      await conn.quit();
      expect(lost).toBeNull();
      expect(results.map((r) => [r?.ok, r?.retryable, r?.reply?.code])).toEqual([
        [true, false, 250],
        [false, false, 550],
        [true, false, 250],
        [false, false, 554],
        [false, true, 450],
        [false, true, 451],
        [true, false, 250],
      ]);
      expect(results[1]?.error).toMatch(/refused the recipient .*550 5\.1\.1 No such user here/);
      const mail = await Promise.all(good.map((to) => received({ to })));
      expect(mail.map((m) => m.length)).toEqual([1, 1, 1]);
      expect(new Set(mail.map((m) => m[0].connection)).size).toBe(1);
    });
  }

  it('upgrades with STARTTLS (trusted test CA) and logs in only then', async () => {
    const conn = await SmtpConnection.open(smtpOptions('starttls'));
    const rcpt = uniqueAddress();
    const { results } = await sendBatch(conn, [item(rcpt)]);
    await conn.quit();
    expect(results[0]?.ok).toBe(true);
    const [mail] = await received({ to: rcpt });
    expect(mail.secure).toBe(true);
    expect(mail.user).toBe(S.smtpUser);
  });

  it('speaks implicit TLS (SMTPS)', async () => {
    const conn = await SmtpConnection.open(smtpOptions('ssl'));
    const rcpt = uniqueAddress();
    const { results } = await sendBatch(conn, [item(rcpt)]);
    await conn.quit();
    expect(results[0]?.ok).toBe(true);
    expect((await received({ to: rcpt }))[0].secure).toBe(true);
  });

  it('does not send the password unencrypted to a server that wants STARTTLS first', async () => {
    const error = await openError(SmtpConnection.open({ ...smtpOptions('starttls'), security: 'none' }));
    expect(error.kind).toBe('auth_unavailable');
    expect(error.message).toMatch(/encrypted/);
  });

  it('refuses to go on without encryption when STARTTLS is required but not offered', async () => {
    const error = await openError(SmtpConnection.open({ ...smtpOptions('pipe'), security: 'starttls' }));
    expect(error.kind).toBe('starttls_unavailable');
    expect(error.retryable).toBe(false);
  });

  it('fails TLS against a certificate nobody trusts (implicit TLS and STARTTLS)', async () => {
    expect((await openError(SmtpConnection.open(smtpOptions('sslUntrusted')))).kind).toBe('tls_failed');
    expect((await openError(SmtpConnection.open(smtpOptions('starttlsUntrusted')))).kind).toBe('tls_failed');
  });

  it('reports wrong credentials as permanent, with the server reply', async () => {
    const error = await openError(SmtpConnection.open(smtpOptions('pipe', { auth: { user: S.smtpUser, password: 'wrong' } })));
    expect(error.kind).toBe('auth_failed');
    expect(error.retryable).toBe(false);
    expect(error.reply?.code).toBe(535);
    const login = await openError(SmtpConnection.open(smtpOptions('nopipe', { auth: { user: 'nobody@example.test', password: 'x' } })));
    expect(login.kind).toBe('auth_failed');
  });

  it('treats a 421 greeting as retryable and a 554 greeting as permanent', async () => {
    const busy = await openError(SmtpConnection.open(smtpOptions('greet421', { auth: null })));
    expect([busy.kind, busy.retryable, busy.reply?.code]).toEqual(['rejected', true, 421]);
    const banned = await openError(SmtpConnection.open(smtpOptions('greet554', { auth: null })));
    expect([banned.kind, banned.retryable, banned.reply?.code]).toEqual(['rejected', false, 554]);
    expect(banned.message).toMatch(/not allowed to send here/);
  });

  it('reports a connection dropped mid-DATA as retryable and leaves the rest unstarted', async () => {
    const conn = await SmtpConnection.open({ ...smtpOptions('open'), port: S.scripted.dropMidData });
    const { results, lost } = await sendBatch(conn, [item(uniqueAddress()), item(uniqueAddress()), item(uniqueAddress())]);
    expect(lost?.kind).toBe('connection_lost');
    expect(results[0]).toMatchObject({ ok: false, retryable: true });
    expect(results[0]?.error).toMatch(/connection was lost/);
    expect(results.slice(1)).toEqual([null, null]);
    expect(conn.broken).toBe(true);
  });

  it('times out on a server that never greets, and on one that never confirms the content', async () => {
    const started = Date.now();
    const silent = await openError(SmtpConnection.open({ ...smtpOptions('open'), port: S.scripted.silent, timeouts: { ...FAST, greeting: 600 } }));
    expect(silent.kind).toBe('timeout');
    expect(silent.retryable).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);

    const conn = await SmtpConnection.open({ ...smtpOptions('open'), port: S.scripted.slowFinal, timeouts: { ...FAST, data: 600 } });
    const { results, lost } = await sendBatch(conn, [item(uniqueAddress())]);
    expect(lost?.kind).toBe('timeout');
    expect(results[0]).toMatchObject({ ok: false, retryable: true });
  });

  it('checks addresses before they reach a command line', async () => {
    const conn = await SmtpConnection.open(smtpOptions('pipe'));
    const good = uniqueAddress();
    const { results } = await sendBatch(conn, [item('bad address@example.test'), item('x@y\r\nRCPT TO:<z@example.test>'), item(good)]);
    await conn.quit();
    expect(results.map((r) => r?.ok)).toEqual([false, false, true]);
    expect(results[0]?.retryable).toBe(false);
    expect(results[0]?.error).toMatch(/not a valid email address/);
    expect(await received({ to: 'z@example.test' })).toEqual([]);
  });
});
