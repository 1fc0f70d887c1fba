// Bench-only worker (run by test/bench/smtp/run.mjs under `wrangler dev`, never deployed): sends N test-size
// emails into a local SMTP sink with our transport (src/lib/smtp, the same code the platform uses) or with
// worker-mailer, on 1..6 connections, and reports how many went and how long it took.
import { LogLevel, WorkerMailer } from 'worker-mailer';
import { htmlToText } from '../../../src/lib/mime/html-to-text';
import { openTransport } from '../../../src/lib/transport/open';
import type { OutgoingMessage } from '../../../src/lib/transport/types';
import { dkimKey, dkimTime, type DkimKeyRequest, type DkimTimeRequest } from './dkim-timing';

interface RunRequest {
  impl: 'relay' | 'worker-mailer';
  port: number;
  n: number;
  connections: number;
  /** Number of the first message (runs split over several requests keep distinct recipients). */
  offset?: number;
}

/** A test-size email: a short subject and about 1.5 KB of html (the plain text is derived from it). */
export function benchHtml(i: number | string): string {
  const rows = Array.from({ length: 12 }, (_, k) => `<tr><td>Item ${k + 1}</td><td>${(k + 1) * 3} units</td></tr>`).join('');
  return `<html><body><h1>Test message ${i}</h1><p>Hello Ada,</p><p>This is a test message from the Relay platform. It checks that the integration, the sender and the template work together.</p><table>${rows}</table><p><a href="https://acme.test/offers">See the offers</a></p><p>Acme Inc, 1 Main Street, Springfield</p></body></html>`;
}

function message(i: number): OutgoingMessage {
  return {
    id: i + 1,
    from: { address: 'news@acme.test', name: 'Acme News' },
    to: `rcpt${i}@example.test`,
    subject: `Test message ${i}`,
    body: benchHtml(i),
    html: true,
  };
}

async function runRelay({ port, n, connections, offset = 0 }: RunRequest) {
  const transport = openTransport({ type: 'smtp', details: { server: '127.0.0.1', port, domain: 'bench.relay.test' }, secret: null }, {}, { connections });
  // Like the send queue: batches of up to 100 messages per connection.
  const batch = 100 * connections;
  let sent = 0;
  let firstError: string | null = null;
  for (let start = 0; start < n; start += batch) {
    const messages = Array.from({ length: Math.min(batch, n - start) }, (_, k) => message(offset + start + k));
    for (const r of await transport.sendMany(messages)) {
      if (r.ok) sent++;
      else firstError ??= r.error;
    }
  }
  await transport.close();
  return { sent, firstError };
}

async function runWorkerMailer({ port, n, connections, offset = 0 }: RunRequest) {
  let sent = 0;
  let firstError: string | null = null;
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      const mailer = await WorkerMailer.connect({ host: '127.0.0.1', port, secure: false, startTls: false, logLevel: LogLevel.NONE });
      while (next < n) {
        const m = message(offset + next++);
        try {
          // The same content as ours: html plus the derived plain text.
          await mailer.send({
            from: { name: m.from.name ?? '', email: m.from.address },
            to: m.to,
            subject: m.subject ?? '',
            html: m.body,
            text: htmlToText(m.body),
          });
          sent++;
        } catch (error) {
          firstError ??= String(error);
        }
      }
      await mailer.close();
    }),
  );
  return { sent, firstError };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/health') return new Response('ok');
    // The message content with "{i}" for the message number, so nodemailer (in Node) sends the same mail.
    if (url.pathname === '/sample') return Response.json({ subject: 'Test message {i}', html: benchHtml('{i}'), text: htmlToText(benchHtml('{i}')) });
    // DKIM (bench:broadcast): a sealed key for the bench sender's domain, and signatures or body hashes to time.
    if (url.pathname === '/dkim/key' && request.method === 'POST') return Response.json(await dkimKey((await request.json()) as DkimKeyRequest));
    if (url.pathname === '/dkim/time' && request.method === 'POST')
      return Response.json(await dkimTime((await request.json()) as DkimTimeRequest, benchHtml(1)));
    if (url.pathname !== '/run' || request.method !== 'POST') return new Response('not found', { status: 404 });
    const body = (await request.json()) as RunRequest;
    const result = body.impl === 'worker-mailer' ? await runWorkerMailer(body) : await runRelay(body);
    return Response.json(result);
  },
};
