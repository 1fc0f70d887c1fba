import net from 'node:net';
import { describe, expect, inject, it } from 'vitest';

const smtpPort = inject('mailSmtpPort');
const mailUrl = inject('mailUrl');

/** A raw SMTP conversation (PIPELINING-free): each command waits for its reply. */
async function sendRaw(port: number, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setEncoding('utf8');
  const replies: string[] = [];
  let buffer = '';
  let waiting: ((line: string) => void) | null = null;
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    // A reply ends with a line "NNN text" (a space after the code, not a dash).
    const match = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buffer);
    if (match && waiting) {
      const reply = buffer;
      buffer = '';
      const resolve = waiting;
      waiting = null;
      resolve(reply);
    }
  });
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  replies.push(await next()); // greeting
  for (const command of commands) {
    const reply = next();
    socket.write(`${command}\r\n`);
    replies.push(await reply);
  }
  socket.end();
  return replies;
}

describe('the local mail catcher', () => {
  it('accepts a message over SMTP (with any AUTH) and shows it in the viewer', async () => {
    expect((await fetch(`${mailUrl}/messages`, { method: 'DELETE' })).status).toBe(200);
    const body = [
      'From: Relay <noreply@acme.test>',
      'To: Grace <grace@example.com>',
      'Subject: Hello from the e2e test',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'It works.',
      '.',
    ].join('\r\n');
    const replies = await sendRaw(smtpPort, [
      'EHLO e2e.test',
      `AUTH PLAIN ${Buffer.from('\0any\0thing').toString('base64')}`,
      'MAIL FROM:<noreply@acme.test>',
      'RCPT TO:<grace@example.com>',
      'RCPT TO:<hidden@example.com>',
      'DATA',
      body,
      'QUIT',
    ]);
    expect(replies.map((r) => r.slice(0, 3))).toEqual(['220', '250', '235', '250', '250', '250', '354', '250', '221']);

    const messages = (await (await fetch(`${mailUrl}/messages.json`)).json()) as Array<Record<string, unknown>>;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      from: 'noreply@acme.test',
      to: ['grace@example.com'],
      envelope: { from: 'noreply@acme.test', to: ['grace@example.com', 'hidden@example.com'] },
      subject: 'Hello from the e2e test',
    });
    expect(String(messages[0].text).trim()).toBe('It works.');

    const list = await (await fetch(`${mailUrl}/`)).text();
    expect(list).toContain('Hello from the e2e test');
    const one = await fetch(`${mailUrl}/messages/${String(messages[0].id)}`);
    expect(one.status).toBe(200);
    expect(await one.text()).toContain('grace@example.com');
  });
});
