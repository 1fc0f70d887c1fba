// The email transport as the sending engine uses it: openTransport(integration) -> send/sendMany/close, into
// real smtp-server instances, with what arrived parsed by postal-mime.
import { describe, expect, it } from 'vitest';
import { openTransport, type TransportIntegration } from '../../../../src/lib/transport/open';
import { email, FAST, NOT_SET_UP, parse, rawHeaders, received, S, stats, uniqueAddress } from '../../../support/transport-helpers';

function smtpIntegration(port: number, details: Record<string, unknown> = {}, password: string | null = S.smtpPassword): TransportIntegration {
  return {
    type: 'smtp',
    details: { server: '127.0.0.1', port, ssl: false, tls: false, domain: 'mail.acme.test', return_path: 'bounces@acme.test', user: S.smtpUser, ...details },
    secret: { password },
  };
}

describe.skipIf(NOT_SET_UP)('SMTP transport', () => {
  it('delivers a full message: UTF-8 subject and name, html + text, attachment, Message-ID, Return-Path, no Bcc', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const pdf = new Uint8Array(5000).map((_, i) => (i * 31) % 256);
    const message = email({
      id: 777,
      from: { address: 'news@acme.test', name: 'Ålesund Café ☕' },
      subject: 'Frühlingsangebot: −50 % auf alles 🌷',
      body: '<h1>Hallo Ada</h1><p>Unser <a href="https://acme.test/sale">Angebot</a> gilt bis Sonntag.</p>',
      attachments: [{ filename: 'Preisliste 2026.pdf', contentType: 'application/pdf', content: pdf }],
      headers: { Bcc: 'hidden@example.test', 'List-Unsubscribe': '<https://acme.test/u/777>' },
    });
    const result = await transport.send(message);
    await transport.close();
    // The server's own id for the message (its 250 reply says "queued as pipe-<n>"), not our Message-ID.
    expect(result).toEqual({ ok: true, externalId: expect.stringMatching(/^pipe-\d+$/) });

    const [mail] = await received({ to: message.to });
    expect(mail.from).toBe('bounces@acme.test');
    expect(mail.to).toEqual([message.to]);
    expect(mail.ehlo).toBe('mail.acme.test');
    expect(mail.raw).not.toMatch(/hidden@example\.test/);
    expect(rawHeaders(mail.raw).map(([k]) => k)).not.toContain('bcc');

    const parsed = await parse(mail.raw);
    expect(parsed.subject).toBe(message.subject);
    expect(parsed.from).toMatchObject({ name: 'Ålesund Café ☕', address: 'news@acme.test' });
    expect(parsed.to?.map((a) => (a as { address: string }).address)).toEqual([message.to]);
    expect(parsed.messageId).toBe('<relay-777@acme.test>');
    expect(parsed.returnPath).toBe('bounces@acme.test');
    expect(parsed.bcc ?? []).toEqual([]);
    expect(parsed.html?.trimEnd()).toBe(message.body);
    expect(parsed.text).toContain('Hallo Ada');
    expect(parsed.text).toContain('Angebot (https://acme.test/sale) gilt bis Sonntag.');
    expect(parsed.attachments).toHaveLength(1);
    expect(parsed.attachments[0].filename).toBe('Preisliste 2026.pdf');
    expect(new Uint8Array(parsed.attachments[0].content as ArrayBuffer)).toEqual(pdf);
    expect(parsed.headers.find((h) => h.key === 'list-unsubscribe')?.value).toBe('<https://acme.test/u/777>');
  });

  it('keeps lines that start with a dot intact end to end', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const body = 'Agenda:\n.\n..\n.hidden\n. spaced\nend';
    const message = email({ html: false, body, bodyPlain: null });
    expect((await transport.send(message)).ok).toBe(true);
    await transport.close();
    const parsed = await parse((await received({ to: message.to }))[0].raw);
    expect(parsed.text?.replace(/\r\n/g, '\n').trimEnd()).toBe(body);
  });

  it('sends a batch over one connection, in order, and one bad recipient does not spoil the rest', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const messages = Array.from({ length: 20 }, (_, i) =>
      email({
        to: i === 7 ? uniqueAddress('reject5') : i === 12 ? uniqueAddress('reject4') : i === 15 ? uniqueAddress('policy5') : uniqueAddress(),
        subject: `Message ${i}`,
      }),
    );
    const results = await transport.sendMany(messages);
    await transport.close();
    expect(results.map((r) => r.ok)).toEqual(messages.map((_, i) => i !== 7 && i !== 12 && i !== 15));
    // A mailbox that does not exist is told apart (the address is suppressed, src/modules/bounce); a busy one and a
    // refusal for policy are not.
    expect(results[7]).toMatchObject({ ok: false, retryable: false, cause: 'mailbox' });
    expect(results[12]).toMatchObject({ ok: false, retryable: true });
    expect(results[12]).not.toHaveProperty('cause', 'mailbox');
    expect(results[15]).toMatchObject({ ok: false, retryable: false });
    expect(results[15]).not.toHaveProperty('cause');
    // Each accepted message carries the id the server gave it, all different.
    const ids = results.filter((r) => r.ok).map((r) => (r as { externalId: string }).externalId);
    expect(ids.every((id) => /^pipe-\d+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(17);
    const mail = (await Promise.all(messages.filter((_, i) => results[i].ok).map((m) => received({ to: m.to })))).map((x) => x[0]);
    expect(mail).toHaveLength(17);
    expect(new Set(mail.map((m) => m.connection)).size).toBe(1);
    expect(mail.map((m) => m.transaction)).toEqual(Array.from({ length: 17 }, (_, i) => i + 1));
  });

  it('fails a message that cannot be built on its own, built only when its turn comes, with and without PIPELINING', async () => {
    for (const port of [S.smtp.pipe, S.smtp.nopipe]) {
      const transport = openTransport(smtpIntegration(port), {}, { timeouts: FAST });
      const broken = { filename: 'broken.pdf', contentType: 'application/pdf', content: null as unknown as Uint8Array };
      const messages = [email(), email({ attachments: [broken] }), email()];
      const results = await transport.sendMany(messages);
      await transport.close();
      expect(results.map((r) => r.ok)).toEqual([true, false, true]);
      expect(results[1]).toMatchObject({ ok: false, retryable: false, error: expect.stringMatching(/^The message could not be built: /) });
      expect(await received({ to: messages[1].to })).toHaveLength(0);
      for (const m of [messages[0], messages[2]]) expect(await received({ to: m.to })).toHaveLength(1);
    }
  });

  it('keeps the session across calls and spreads a batch over several connections when asked', async () => {
    const transport = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST, connections: 3 });
    const first = Array.from({ length: 12 }, () => email());
    const second = Array.from({ length: 3 }, () => email());
    expect((await transport.sendMany(first)).every((r) => r.ok)).toBe(true);
    expect((await transport.sendMany(second)).every((r) => r.ok)).toBe(true);
    await transport.close();
    const connections = new Set<string>();
    for (const m of [...first, ...second]) connections.add((await received({ to: m.to }))[0].connection);
    expect(connections.size).toBe(3);
  });

  it('works without PIPELINING (AUTH LOGIN), over STARTTLS and over SSL', async () => {
    for (const [port, details] of [
      [S.smtp.nopipe, {}],
      [S.smtp.starttls, { tls: true }],
      [S.smtp.ssl, { ssl: true }],
    ] as const) {
      const transport = openTransport(smtpIntegration(port, details), {}, { timeouts: FAST });
      const messages = [email(), email()];
      expect((await transport.sendMany(messages)).map((r) => r.ok)).toEqual([true, true]);
      await transport.close();
      const [mail] = await received({ to: messages[1].to });
      expect(mail.secure).toBe(port !== S.smtp.nopipe);
      expect(mail.user).toBe(S.smtpUser);
    }
  });

  it('opens a new session when the server ends one mid-batch (421) and delivers everything once', async () => {
    const transport = openTransport(smtpIntegration(S.scripted.closeAfterFirst, { user: null }), {}, { timeouts: FAST });
    const before = (await stats('closeAfterFirst')).connections;
    const messages = Array.from({ length: 4 }, () => email());
    const results = await transport.sendMany(messages);
    await transport.close();
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true]);
    for (const m of messages) expect(await received({ to: m.to })).toHaveLength(1);
    expect((await stats('closeAfterFirst')).connections - before).toBe(4);
  });

  it('marks the message in flight retryable when the connection drops mid-DATA, and gives up on a server that always does', async () => {
    const transport = openTransport(smtpIntegration(S.scripted.dropMidData, { user: null }), {}, { timeouts: FAST });
    const results = await transport.sendMany([email(), email(), email()]);
    await transport.close();
    for (const r of results) expect(r).toMatchObject({ ok: false, retryable: true });
    expect((results[0] as { error: string }).error).toMatch(/connection was lost/);
  });

  it('fails every message with the reason when the credentials are wrong or the settings cannot work', async () => {
    const wrong = openTransport(smtpIntegration(S.smtp.pipe, {}, 'not the password'), {}, { timeouts: FAST });
    const results = await wrong.sendMany([email(), email()]);
    await wrong.close();
    for (const r of results) {
      expect(r).toMatchObject({ ok: false, retryable: false });
      expect((r as { error: string }).error).toMatch(/did not accept the user name .* 535/);
    }
    const broken = openTransport({ type: 'smtp', details: { server: '', port: 'abc' }, secret: null });
    const [failure] = await broken.sendMany([email()]);
    expect(failure).toMatchObject({ ok: false, retryable: false });
    expect((failure as { error: string }).error).toMatch(/server.*required|port/);
    const bad = openTransport(smtpIntegration(S.smtp.pipe), {}, { timeouts: FAST });
    const [invalid] = await bad.sendMany([email({ to: 'not an address' })]);
    await bad.close();
    expect(invalid).toMatchObject({ ok: false, retryable: false });
  });

  it('reads details stored as JSON text and names itself with the return-path domain when no domain is set', async () => {
    const integration = smtpIntegration(S.smtp.pipe, { domain: null });
    const transport = openTransport({ ...integration, details: JSON.stringify(integration.details) }, {}, { timeouts: FAST });
    const message = email();
    expect((await transport.send(message)).ok).toBe(true);
    await transport.close();
    expect((await received({ to: message.to }))[0].ehlo).toBe('acme.test');
  });
});
