// Global setup of the transport tests (runs in Node, before the tests run in workerd): starts the SMTP servers,
// the scripted failure servers, Prism with Twilio's contract, the Twilio fault server, the SMS catcher and a
// control endpoint, and hands their addresses to the tests with provide('transport').
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { nodeFixtureSignature, verifyDkim } from './dkim-node';
import { startSmsCatcher } from '../../scripts/sms-catcher.mjs';
import { freePort, startPrism } from './prism';
import { startScriptedSmtp, type Script } from './scripted-smtp';
import { Mailbox, SMTP_PASSWORD, SMTP_USER, startSmtpServers, type RunningServer } from './smtp-servers';
import { readTestTls } from './tls-cert.mjs';
import type { TransportServers } from './transport-context';
import { startTwilioFaultServer } from './twilio-fault-server';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The control endpoint: GET /mail?to=addr or ?server=name (what the SMTP servers received), GET /stats?server=name
 * (connections, lockstep violations), GET /dns-query?name=&type= (DNS over HTTPS, JSON: *.invalid does not
 * exist, every other name is 127.0.0.1), POST /dkim/verify (JSON {raw, records}: mailauth's verdicts), GET
 * /dkim/fixture-signature (the DKIM fixture signed in Node).
 */
function controlServer(mailbox: Mailbox): http.Server {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/mail') {
      const to = url.searchParams.get('to');
      const server = url.searchParams.get('server');
      return send(mailbox.mail.filter((m) => (!to || m.to.includes(to)) && (!server || m.server === server)));
    }
    if (url.pathname === '/stats') return send(mailbox.stat(url.searchParams.get('server') ?? ''));
    if (url.pathname === '/dkim/verify' && req.method === 'POST') {
      return void readJson(req)
        .then(({ raw, records }) => verifyDkim(raw, records))
        .then(send, (error) => res.writeHead(500).end(String(error)));
    }
    if (url.pathname === '/dkim/fixture-signature') {
      return void nodeFixtureSignature().then(send, (error) => res.writeHead(500).end(String(error)));
    }
    if (url.pathname === '/dns-query') {
      const name = url.searchParams.get('name') ?? '';
      const type = url.searchParams.get('type') === 'AAAA' ? 28 : 1;
      res.writeHead(200, { 'content-type': 'application/dns-json' });
      if (/\.invalid\.?$/i.test(name)) return res.end(JSON.stringify({ Status: 3, Question: [{ name, type }] }));
      const answer = type === 1 ? [{ name, type: 1, TTL: 60, data: '127.0.0.1' }] : [];
      return res.end(JSON.stringify({ Status: 0, Question: [{ name, type }], Answer: answer }));
    }
    res.writeHead(404).end();
  });
}

async function readJson(req: http.IncomingMessage): Promise<{ raw: string; records: Record<string, string[]> }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export default async function setup(project: TestProject) {
  const tlsDir = process.env.RELAY_TRANSPORT_TLS_DIR;
  if (!tlsDir) throw new Error('RELAY_TRANSPORT_TLS_DIR is not set: run these tests with test/vitest.transport.config.ts');
  const tls = readTestTls(tlsDir);
  const closers: (() => Promise<void>)[] = [];
  const mailbox = new Mailbox();

  const smtp = await startSmtpServers(mailbox, tls);
  closers.push(...Object.values(smtp).map((s) => s.close));
  const scripted: Record<string, RunningServer> = {};
  for (const script of ['silent', 'dropMidData', 'lockstep', 'closeAfterFirst', 'slowFinal'] as Script[]) {
    scripted[script] = await startScriptedSmtp(script, mailbox);
    closers.push(scripted[script].close);
  }

  const control = controlServer(mailbox);
  const controlPort = await new Promise<number>((resolve) => control.listen(0, '127.0.0.1', () => resolve((control.address() as { port: number }).port)));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        control.closeAllConnections();
        control.close(() => resolve());
      }),
  );

  const faults = await startTwilioFaultServer();
  closers.push(faults.close);
  const smsDir = mkdtempSync(path.join(os.tmpdir(), 'relay-sms-catcher-'));
  const catcher = await startSmsCatcher({ port: 0, dir: smsDir, numbers: ['+15005550006', '+15005550007', '+15005550008'], callbackDelayMs: 50 });
  closers.push(async () => {
    await catcher.close();
    rmSync(smsDir, { recursive: true, force: true });
  });
  const { prism, skipReason } = await startPrism(ROOT);
  if (prism) closers.push(prism.close);
  if (skipReason) console.warn(skipReason);

  const port = (r: Record<string, RunningServer>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.port]));
  const servers: TransportServers = {
    control: `http://127.0.0.1:${controlPort}`,
    smtp: port(smtp) as TransportServers['smtp'],
    scripted: port(scripted) as TransportServers['scripted'],
    closedPort: await freePort(),
    smtpUser: SMTP_USER,
    smtpPassword: SMTP_PASSWORD,
    prism: prism?.url ?? null,
    prismSkipReason: skipReason,
    twilioFaults: faults.url,
    smsCatcher: catcher.url,
    smsCatcherNumbers: catcher.numbers,
  };
  project.provide('transport', servers);

  return async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    rmSync(tlsDir, { recursive: true, force: true });
  };
}
